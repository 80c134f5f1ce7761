/* Millisecond clock on Timer0 (CTC, 1 kHz). Also the main loop's tick. */
#ifndef PASSEFRAME_CLOCK_H
#define PASSEFRAME_CLOCK_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
void clock_init(void);
uint32_t clock_now(void);     /* ms since boot (wraps after 49 days) */
/* Sleeps (idle) until the next 1 ms tick unless one is already pending; clears it. */
void clock_wait_tick(void);
#ifdef __cplusplus
}
#endif
#endif
