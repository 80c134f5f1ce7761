#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>
#include "config.h"
#include "sensors.h"

static volatile uint16_t ladder[PF_SLIDES];
static volatile uint8_t channel;

ISR(ADC_vect)
{
    ladder[channel] = ADC;     /* read before switching the multiplexer */
    channel = (uint8_t)((channel + 1u) % PF_SLIDES);
    ADMUX = (uint8_t)(_BV(REFS0) | channel);
    ADCSRA |= _BV(ADSC);
}

void sensors_init(void)
{
    /* Board switches: inputs with pull-ups, closed = low. */
    DDRD &= (uint8_t)~(_BV(PD2) | _BV(PD3));
    PORTD |= _BV(PD2) | _BV(PD3);
    /* Ladders: digital input buffers off on A0..A5, AVCC reference, clk/128 (125 kHz). */
    DIDR0 = 0x3F;
    channel = 0;
    ADMUX = _BV(REFS0);
    ADCSRB = 0;
    ADCSRA = _BV(ADEN) | _BV(ADIE) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0);
    ADCSRA |= _BV(ADSC);
}

uint16_t sensors_ladder(uint8_t slide_index)
{
    uint16_t v;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        v = ladder[slide_index];
    }
    return v;
}

uint8_t sensors_switch_a(void)
{
    return !(PIND & _BV(PD2));
}

uint8_t sensors_switch_b(void)
{
    return !(PIND & _BV(PD3));
}
