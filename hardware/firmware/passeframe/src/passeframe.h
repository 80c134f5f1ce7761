/* The slide-frame sensor board: reads six slide ladders and the board switches, and
 * speaks the protocol of firmware_bridge/PROTOCOL.md on UART0 at 115200 baud.
 * Plain C with setup/loop entry points, so it builds with avr-gcc's own main (main.c)
 * or as an Arduino sketch (passeframe.ino). */
#ifndef PASSEFRAME_H
#define PASSEFRAME_H
#ifdef __cplusplus
extern "C" {
#endif
void passeframe_setup(void);
void passeframe_loop(void);   /* one pass per millisecond; returns after it */
#ifdef __cplusplus
}
#endif
#endif
