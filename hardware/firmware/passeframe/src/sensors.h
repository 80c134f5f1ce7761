/* The inputs: six ladder voltages sampled round-robin by the ADC interrupt (A0..A5,
 * AVCC reference, ~0.7 ms per round) and the two board switches on PD2/PD3. */
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
#ifdef __cplusplus
}
#endif
#endif
