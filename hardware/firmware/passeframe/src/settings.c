#include <avr/eeprom.h>
#include "frame.h"
#include "settings.h"

#define SETTINGS_MAGIC 0x5046u  /* "PF" */

typedef struct {
    uint16_t magic;
    thresholds_t values;
    uint16_t crc;
} stored_t;

static stored_t EEMEM stored;

static uint16_t crc_of(const thresholds_t *t)
{
    const uint8_t *p = (const uint8_t *)t;
    uint16_t crc = 0xFFFFu;
    for (uint8_t i = 0; i < sizeof *t; i++)
        crc = crc16_update(crc, p[i]);
    return crc;
}

void settings_load(thresholds_t *t)
{
    stored_t s;
    eeprom_read_block(&s, &stored, sizeof s);
    if (s.magic == SETTINGS_MAGIC && s.crc == crc_of(&s.values) && thresholds_valid(&s.values))
        *t = s.values;
    else
        thresholds_default(t);
}

void settings_save(const thresholds_t *t)
{
    stored_t s;
    s.magic = SETTINGS_MAGIC;
    s.values = *t;
    s.crc = crc_of(t);
    eeprom_update_block(&s, &stored, sizeof s);
}
