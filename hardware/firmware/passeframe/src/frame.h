/* Frames of the serial protocol (firmware_bridge/PROTOCOL.md): building what the board
 * sends, assembling and checking what the host sends. Portable C, unit-tested on the host.
 *
 *   $EV 42 t=123456 s3=4*9C1B\r\n
 *
 * CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over what lies between '$' and '*'. */
#ifndef PASSEFRAME_FRAME_H
#define PASSEFRAME_FRAME_H

#include <stdint.h>
#include "config.h"

#ifdef __AVR__
#include <avr/pgmspace.h>
#define PF_STR(s) PSTR(s)          /* literal kept in flash */
#define pf_flash_char(p) ((char)pgm_read_byte(p))
#else
#define PF_STR(s) (s)
#define pf_flash_char(p) (*(p))
#endif

#ifdef __cplusplus
extern "C" {
#endif

uint16_t crc16_update(uint16_t crc, uint8_t byte);

/* ---- building a device frame ---- */
typedef struct {
    char buf[PF_MAX_DEVICE_FRAME];
    uint8_t len;
    uint8_t overflow;
} frame_t;

void frame_begin(frame_t *f, const char *type_flash, uint16_t seq);
void frame_key(frame_t *f, const char *key_flash);        /* appends " key=" */
void frame_text(frame_t *f, const char *text_flash);
void frame_char(frame_t *f, char c);
void frame_u32(frame_t *f, uint32_t value);
void frame_field_u32(frame_t *f, const char *key_flash, uint32_t value);
/* Appends "*CRC\r\n"; returns the frame's length, 0 if it did not fit. */
uint8_t frame_end(frame_t *f);

/* ---- receiving host frames ---- */
typedef struct {
    char buf[PF_MAX_HOST_FRAME];  /* the body between '$' and '\n', NUL-terminated */
    uint8_t len;
    uint8_t in_frame;
} line_t;

enum { LINE_NONE = 0, LINE_READY = 1, LINE_BROKEN = 2 };
void line_init(line_t *l);
/* Feed one byte; LINE_READY when l->buf holds a whole frame body, LINE_BROKEN when a
 * frame was cut short or too long (the stream resyncs at the next '$'). */
uint8_t line_push(line_t *l, char c);

#define PF_MAX_FIELDS 6
typedef struct {
    const char *type;
    uint16_t seq;
    uint8_t nfields;
    const char *key[PF_MAX_FIELDS];
    const char *value[PF_MAX_FIELDS];
} command_t;

/* Checks the CRC and the grammar of a body, splitting it in place; 1 if valid. */
uint8_t command_parse(char *body, command_t *cmd);
/* The value of field key (flash string), or 0. */
const char *command_field(const command_t *cmd, const char *key_flash);
/* 1 if ram equals the flash string. */
uint8_t text_equals(const char *ram, const char *text_flash);
/* Parses 1..5 decimal digits (<= 65535) into *out; 1 on success. */
uint8_t parse_u16(const char *s, uint16_t *out);

#ifdef __cplusplus
}
#endif
#endif
