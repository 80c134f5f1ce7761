/* The inputs: six ladder voltages sampled round-robin by the ADC interrupt (A0..A5,
 * AVCC reference, ~0.7 ms per round), the two board switches on PD2/PD3, and the seven
 * top-hole sensors on PD4..PD7, PB0..PB2 (low = a peg in view), whose pin-change
 * interrupts latch any moment a sensor saw something, however short. */
#ifndef PASSEFRAME_SENSORS_H
#define PASSEFRAME_SENSORS_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
void sensors_init(void);
uint16_t sensors_ladder(uint8_t slide_index);   /* latest 10-bit reading, slide 0..5 */
uint8_t sensors_switch_a(void);                 /* 1 when switch A is closed */
uint8_t sensors_switch_b(void);
/* Bit i set: hole i's sensor sees something now or saw it since the last call (clears). */
uint8_t sensors_holes_seen(void);
#ifdef __cplusplus
}
#endif
#endif
