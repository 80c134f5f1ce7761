#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <util/atomic.h>
#include "clock.h"

static volatile uint32_t clock_ms;
static volatile uint8_t tick_pending;

ISR(TIMER0_COMPA_vect)
{
    clock_ms++;
    tick_pending = 1;
}

void clock_init(void)
{
    /* Overwrite all of Timer0's setup: under the Arduino core, init() configured it. */
    TIMSK0 = 0;
    TCCR0A = _BV(WGM01);                 /* CTC */
    TCCR0B = _BV(CS01) | _BV(CS00);      /* clk/64 */
    OCR0A = (uint8_t)(F_CPU / 64u / 1000u - 1u);
    TCNT0 = 0;
    TIFR0 = _BV(OCF0A) | _BV(TOV0);
    TIMSK0 = _BV(OCIE0A);
}

uint32_t clock_now(void)
{
    uint32_t now;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        now = clock_ms;
    }
    return now;
}

void clock_wait_tick(void)
{
    set_sleep_mode(SLEEP_MODE_IDLE);
    cli();
    while (!tick_pending) {
        sleep_enable();
        sei();                 /* the instruction after SEI runs before any interrupt */
        sleep_cpu();
        sleep_disable();
        cli();
    }
    tick_pending = 0;
    sei();
}
