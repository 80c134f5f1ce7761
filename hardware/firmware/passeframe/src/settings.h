/* Thresholds kept in EEPROM, so a calibration set by the host survives power cycles. */
#ifndef PASSEFRAME_SETTINGS_H
#define PASSEFRAME_SETTINGS_H
#include "decode.h"
#ifdef __cplusplus
extern "C" {
#endif
void settings_load(thresholds_t *t);        /* defaults when EEPROM is blank or damaged */
void settings_save(const thresholds_t *t);
#ifdef __cplusplus
}
#endif
#endif
