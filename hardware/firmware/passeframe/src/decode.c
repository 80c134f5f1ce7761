#include "decode.h"
#include "config.h"

uint16_t notch_level(uint8_t notch)
{
    return (uint16_t)((1023u * (uint32_t)(notch + 1u) + 3u) / 6u);
}

static uint16_t distance(uint16_t a, uint16_t b)
{
    return a > b ? a - b : b - a;
}

uint8_t decode_notch(uint16_t raw, uint8_t reported, const thresholds_t *t)
{
    if (reported < PF_NOTCHES && distance(raw, notch_level(reported)) <= t->hold)
        return reported;
    for (uint8_t i = 0; i < PF_NOTCHES; i++)
        if (distance(raw, notch_level(i)) <= t->band)
            return i;
    return PF_NONE;
}

uint8_t decode_board(uint8_t a_closed, uint8_t b_closed)
{
    if (a_closed && b_closed) return 2;
    if (a_closed) return 1;
    if (b_closed) return 3;
    return PF_NONE;  /* between positions, or a switch wire is broken */
}

void tracker_init(tracker_t *tr)
{
    tr->reported = PF_NONE;
    tr->pending = PF_NONE;
    tr->since = 0;
}

uint8_t tracker_update(tracker_t *tr, uint8_t candidate, uint32_t now, uint16_t hold_ms)
{
    if (candidate != tr->pending) {
        tr->pending = candidate;
        tr->since = now;
    }
    if (tr->pending == PF_NONE || tr->pending == tr->reported)
        return 0;
    if ((uint32_t)(now - tr->since) < hold_ms)
        return 0;
    tr->reported = tr->pending;
    return 1;
}

void hole_init(hole_t *h, uint32_t now)
{
    h->latched = 1;
    h->count = 0;
    h->last_active = now;
}

uint8_t hole_update(hole_t *h, uint8_t active, uint32_t now, uint16_t rearm_ms, uint8_t suppress)
{
    if (h->latched && (uint32_t)(now - h->last_active) >= rearm_ms)
        h->latched = 0;
    if (!active)
        return 0;
    h->last_active = now;
    if (h->latched)
        return 0;
    h->latched = 1;
    if (suppress)
        return 0;
    h->count++;
    return 1;
}

uint8_t thresholds_valid(const thresholds_t *t)
{
    return t->band >= 1 && t->band <= t->hold && t->hold <= PF_MAX_BAND
        && t->settle_ms <= PF_MAX_SETTLE_MS && t->debounce_ms <= PF_MAX_DEBOUNCE_MS;
}

void thresholds_default(thresholds_t *t)
{
    t->band = PF_DEFAULT_BAND;
    t->hold = PF_DEFAULT_HOLD;
    t->settle_ms = PF_DEFAULT_SETTLE_MS;
    t->debounce_ms = PF_DEFAULT_DEBOUNCE_MS;
}
