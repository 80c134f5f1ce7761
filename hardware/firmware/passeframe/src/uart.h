/* Interrupt-driven UART0: a transmit ring that takes whole frames or nothing, and a
 * receive ring. 115200 baud 8N1 (U2X, UBRR 16 at 16 MHz: +2.1 %, as the Arduino core). */
#ifndef PASSEFRAME_UART_H
#define PASSEFRAME_UART_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
void uart_init(void);
/* Queues len bytes; returns 0 (and queues nothing) if they do not all fit. */
uint8_t uart_send(const char *data, uint8_t len);
/* Next received byte, or -1. */
int16_t uart_read(void);
/* Bytes received with a framing or overrun error, or lost to a full ring. */
uint16_t uart_rx_errors(void);
#ifdef __cplusplus
}
#endif
#endif
