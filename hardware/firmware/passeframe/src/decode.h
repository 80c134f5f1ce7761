/* Position decoding: ladder voltage -> notch, two switches -> board position, and the
 * settle timer that keeps a slide passing through a notch from reporting it.
 * Portable C (no AVR headers): unit-tested on the host by tests/test_host.c. */
#ifndef PASSEFRAME_DECODE_H
#define PASSEFRAME_DECODE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint8_t band;          /* ADC counts around a level to enter a notch */
    uint8_t hold;          /* ADC counts around the reported level to stay in it */
    uint16_t settle_ms;    /* how long a new notch must hold before it is reported */
    uint16_t debounce_ms;  /* how long the board inputs must hold */
} thresholds_t;

typedef struct {
    uint8_t reported;      /* last reported position, PF_NONE before the first */
    uint8_t pending;       /* candidate being timed */
    uint32_t since;        /* when the candidate appeared (ms) */
} tracker_t;

typedef struct {
    uint8_t latched;       /* counted (or carried in) and not clear for rearm_ms since */
    uint8_t count;         /* drops since boot, modulo 256 */
    uint32_t last_active;  /* when the sensor last saw something (ms) */
} hole_t;

/* ADC level of notch i (0..PF_NOTCHES-1): (i+1)/6 of the 10-bit full scale. */
uint16_t notch_level(uint8_t notch);

/* The notch a 10-bit reading stands for, PF_NONE between notches. The reported notch is
 * kept while the reading stays within hold counts (hysteresis); a new one needs band. */
uint8_t decode_notch(uint16_t raw, uint8_t reported, const thresholds_t *t);

/* Board position from the two switches (1 = closed): A -> 1, A+B -> 2, B -> 3, else NONE. */
uint8_t decode_board(uint8_t a_closed, uint8_t b_closed);

void tracker_init(tracker_t *tr);
/* Feed a candidate at time now; returns 1 when a new position becomes reported (it has
 * held for hold_ms and is not PF_NONE). Never reports PF_NONE. */
uint8_t tracker_update(tracker_t *tr, uint8_t candidate, uint32_t now, uint16_t hold_ms);

/* A top hole's drop counting. At boot every hole is latched, so a peg already there is
 * not a drop. Feed `active` = the sensor saw something since the last call (the level, or
 * a pin change latched by the interrupt); returns 1 when that is a new drop: the first
 * thing seen after rearm_ms of nothing. A peg falling through (seen a few ms) and a peg
 * that stays in the hole (seen until it leaves) both count once. `suppress`: the top slide
 * is moving, so what comes into view is a peg it carries, latched without counting. */
void hole_init(hole_t *h, uint32_t now);
uint8_t hole_update(hole_t *h, uint8_t active, uint32_t now, uint16_t rearm_ms, uint8_t suppress);

/* Whether thresholds are usable: 1 <= band <= hold <= PF_MAX_BAND, times in range. */
uint8_t thresholds_valid(const thresholds_t *t);
void thresholds_default(thresholds_t *t);

#ifdef __cplusplus
}
#endif
#endif
