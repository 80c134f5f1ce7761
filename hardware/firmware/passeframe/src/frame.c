#include "frame.h"

uint16_t crc16_update(uint16_t crc, uint8_t byte)
{
    crc ^= (uint16_t)byte << 8;
    for (uint8_t i = 0; i < 8; i++)
        crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
    return crc;
}

/* ---- building ---- */

#define FRAME_TAIL 7u  /* "*HHHH\r\n" */

void frame_char(frame_t *f, char c)
{
    if (f->len + FRAME_TAIL >= sizeof f->buf) {
        f->overflow = 1;
        return;
    }
    f->buf[f->len++] = c;
}

void frame_text(frame_t *f, const char *text_flash)
{
    char c;
    while ((c = pf_flash_char(text_flash++)) != 0)
        frame_char(f, c);
}

void frame_u32(frame_t *f, uint32_t value)
{
    char digits[10];
    uint8_t n = 0;
    do {
        digits[n++] = (char)('0' + value % 10u);
        value /= 10u;
    } while (value);
    while (n)
        frame_char(f, digits[--n]);
}

void frame_begin(frame_t *f, const char *type_flash, uint16_t seq)
{
    f->len = 0;
    f->overflow = 0;
    frame_char(f, '$');
    frame_text(f, type_flash);
    frame_char(f, ' ');
    frame_u32(f, seq);
}

void frame_key(frame_t *f, const char *key_flash)
{
    frame_char(f, ' ');
    frame_text(f, key_flash);
    frame_char(f, '=');
}

void frame_field_u32(frame_t *f, const char *key_flash, uint32_t value)
{
    frame_key(f, key_flash);
    frame_u32(f, value);
}

uint8_t frame_end(frame_t *f)
{
    static const char hex[] = "0123456789ABCDEF";
    if (f->overflow)
        return 0;
    uint16_t crc = 0xFFFFu;
    for (uint8_t i = 1; i < f->len; i++)
        crc = crc16_update(crc, (uint8_t)f->buf[i]);
    f->buf[f->len++] = '*';
    for (int8_t shift = 12; shift >= 0; shift -= 4)
        f->buf[f->len++] = hex[(crc >> shift) & 0xFu];
    f->buf[f->len++] = '\r';
    f->buf[f->len++] = '\n';
    return f->len;
}

/* ---- receiving ---- */

void line_init(line_t *l)
{
    l->len = 0;
    l->in_frame = 0;
}

uint8_t line_push(line_t *l, char c)
{
    if (!l->in_frame) {
        if (c == '$') {
            l->in_frame = 1;
            l->len = 0;
        }
        return LINE_NONE;
    }
    if (c == '$') {           /* a new frame began: the current one lost its end */
        l->len = 0;
        return LINE_BROKEN;
    }
    if (c == '\n') {
        l->in_frame = 0;
        if (l->len && l->buf[l->len - 1] == '\r')
            l->len--;
        l->buf[l->len] = 0;
        return LINE_READY;
    }
    /* '$' + body + '\n' must fit PF_MAX_HOST_FRAME; buf keeps one byte for the NUL. */
    if (l->len + 2u >= PF_MAX_HOST_FRAME) {
        l->in_frame = 0;
        return LINE_BROKEN;
    }
    l->buf[l->len++] = c;
    return LINE_NONE;
}

static uint8_t hex_value(char c)
{
    if (c >= '0' && c <= '9') return (uint8_t)(c - '0');
    if (c >= 'A' && c <= 'F') return (uint8_t)(c - 'A' + 10);
    return 0xFF;
}

static uint8_t is_value_char(char c)
{
    return c > ' ' && c <= '~' && c != '$' && c != '*' && c != '=';
}

uint8_t parse_u16(const char *s, uint16_t *out)
{
    uint32_t v = 0;
    uint8_t n = 0;
    if (s[0] == '0' && s[1] != 0)
        return 0;             /* canonical form only */
    for (; s[n]; n++) {
        if (s[n] < '0' || s[n] > '9' || n >= 5)
            return 0;
        v = v * 10u + (uint32_t)(s[n] - '0');
    }
    if (n == 0 || v > 65535u)
        return 0;
    *out = (uint16_t)v;
    return 1;
}

uint8_t command_parse(char *body, command_t *cmd)
{
    uint8_t len = 0;
    while (body[len])
        len++;
    if (len < 5 || body[len - 5] != '*')
        return 0;
    uint16_t crc = 0xFFFFu, sent = 0;
    for (uint8_t i = 0; i < len - 5; i++)
        crc = crc16_update(crc, (uint8_t)body[i]);
    for (uint8_t i = len - 4; i < len; i++) {
        uint8_t h = hex_value(body[i]);
        if (h == 0xFF)
            return 0;
        sent = (uint16_t)((sent << 4) | h);
    }
    if (crc != sent)
        return 0;
    body[len - 5] = 0;

    /* TYPE */
    char *p = body;
    cmd->type = p;
    uint8_t n = 0;
    while (*p >= 'A' && *p <= 'Z') { p++; n++; }
    if (n == 0 || n > 8 || *p != ' ')
        return 0;
    *p++ = 0;
    /* SEQ */
    char *seq = p;
    while (*p && *p != ' ') p++;
    char end = *p;
    *p = 0;
    if (!parse_u16(seq, &cmd->seq))
        return 0;
    /* key=value fields */
    cmd->nfields = 0;
    while (end == ' ') {
        p++;
        if (cmd->nfields >= PF_MAX_FIELDS || !(*p >= 'a' && *p <= 'z'))
            return 0;
        cmd->key[cmd->nfields] = p;
        n = 0;
        while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) { p++; n++; }
        if (n > 8 || *p != '=')
            return 0;
        *p++ = 0;
        cmd->value[cmd->nfields] = p;
        n = 0;
        while (is_value_char(*p)) { p++; n++; }
        if (n == 0 || n > 32 || (*p != ' ' && *p != 0))
            return 0;
        end = *p;
        *p = 0;
        cmd->nfields++;
    }
    return end == 0;
}

uint8_t text_equals(const char *ram, const char *text_flash)
{
    char c;
    do {
        c = pf_flash_char(text_flash++);
        if (*ram++ != c)
            return 0;
    } while (c);
    return 1;
}

const char *command_field(const command_t *cmd, const char *key_flash)
{
    for (uint8_t i = 0; i < cmd->nfields; i++)
        if (text_equals(cmd->key[i], key_flash))
            return cmd->value[i];
    return 0;
}
