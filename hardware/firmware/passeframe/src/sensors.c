#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>
#include "config.h"
#include "sensors.h"

static volatile uint16_t ladder[PF_SLIDES];
static volatile uint8_t channel;
static volatile uint8_t holes_latched;

/* Holes 0..3 on PD4..PD7, holes 4..6 on PB0..PB2; a sensor pulls its pin low. */
#define HOLES_D_MASK 0xF0u
#define HOLES_B_MASK 0x07u

static uint8_t holes_now(void)
{
    return (uint8_t)((((uint8_t)~PIND & HOLES_D_MASK) >> 4) | (((uint8_t)~PINB & HOLES_B_MASK) << 4));
}

/* A peg falling past a sensor may be seen for less than the main loop's millisecond. */
ISR(PCINT2_vect)
{
    holes_latched |= holes_now();
}

ISR(PCINT0_vect, ISR_ALIASOF(PCINT2_vect));

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
    /* Top-hole sensors: inputs with pull-ups, pin-change interrupts on all seven. */
    DDRD &= (uint8_t)~HOLES_D_MASK;
    PORTD |= HOLES_D_MASK;
    DDRB &= (uint8_t)~HOLES_B_MASK;
    PORTB |= HOLES_B_MASK;
    holes_latched = 0;
    PCMSK2 = HOLES_D_MASK;
    PCMSK0 = HOLES_B_MASK;
    PCIFR = _BV(PCIF0) | _BV(PCIF2);
    PCICR = _BV(PCIE0) | _BV(PCIE2);
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

uint8_t sensors_holes_seen(void)
{
    uint8_t seen;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        seen = holes_latched | holes_now();
        holes_latched = 0;
    }
    return seen;
}
