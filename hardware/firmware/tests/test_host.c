/* Host unit tests of the firmware's portable parts (frame.c, decode.c): `make test`. */
#include <stdio.h>
#include <string.h>
#include "config.h"
#include "decode.h"
#include "frame.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { failures++; printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } } while (0)

static void test_crc(void)
{
    uint16_t crc = 0xFFFF;
    for (const char *p = "123456789"; *p; p++)
        crc = crc16_update(crc, (uint8_t)*p);
    CHECK(crc == 0x29B1);
}

static void test_frame_building(void)
{
    frame_t f;
    frame_begin(&f, "EV", 42);
    frame_field_u32(&f, "t", 123456);
    frame_field_u32(&f, "s3", 4);
    uint8_t len = frame_end(&f);
    /* Same bytes as firmware_bridge.protocol.encode_frame("EV", 42, {"t": 123456, "s3": 4}). */
    uint16_t crc = 0xFFFF;
    const char *body = "EV 42 t=123456 s3=4";
    for (const char *p = body; *p; p++)
        crc = crc16_update(crc, (uint8_t)*p);
    char expected[64];
    snprintf(expected, sizeof expected, "$%s*%04X\r\n", body, crc);
    CHECK(len == strlen(expected));
    CHECK(memcmp(f.buf, expected, len) == 0);

    frame_begin(&f, "HB", 1);
    for (int i = 0; i < 200; i++)
        frame_char(&f, 'x');
    CHECK(frame_end(&f) == 0);          /* too long: refused, not truncated */
}

static uint8_t feed(line_t *l, const char *text)
{
    uint8_t r = LINE_NONE;
    for (; *text; text++) {
        r = line_push(l, *text);
        if (r != LINE_NONE && text[1])
            return 0xEE;                /* finished early */
    }
    return r;
}

static void with_crc(char *out, size_t size, const char *body)
{
    uint16_t crc = 0xFFFF;
    for (const char *p = body; *p; p++)
        crc = crc16_update(crc, (uint8_t)*p);
    snprintf(out, size, "$%s*%04X\r\n", body, crc);
}

static void test_command_parsing(void)
{
    line_t l;
    command_t cmd;
    char text[80];
    line_init(&l);
    with_crc(text, sizeof text, "SET 7 band=20 settle=300");
    CHECK(feed(&l, "noise") == LINE_NONE);
    CHECK(feed(&l, text) == LINE_READY);
    CHECK(command_parse(l.buf, &cmd) == 1);
    CHECK(strcmp(cmd.type, "SET") == 0 && cmd.seq == 7 && cmd.nfields == 2);
    CHECK(strcmp(command_field(&cmd, "settle"), "300") == 0);
    CHECK(command_field(&cmd, "hold") == 0);

    with_crc(text, sizeof text, "SET 7 band=21 settle=300");
    text[10] = '0';                     /* band=20 with the CRC of band=21 */
    CHECK(feed(&l, text) == LINE_READY);
    CHECK(command_parse(l.buf, &cmd) == 0);

    static const char *bad[] = {"set 1", "SET 01", "SET 70000", "SET 1 Band=2", "SET 1 band=", "SET 1  band=2", "SET"};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        with_crc(text, sizeof text, bad[i]);
        CHECK(feed(&l, text) == LINE_READY);
        CHECK(command_parse(l.buf, &cmd) == 0);
    }

    /* A lost line end: the next '$' breaks the frame, and the one after parses. */
    CHECK(feed(&l, "$SNAP 1*0000") == LINE_NONE);
    CHECK(line_push(&l, '$') == LINE_BROKEN);
    with_crc(text, sizeof text, "SNAP 2");
    CHECK(feed(&l, text + 1) == LINE_READY);
    CHECK(command_parse(l.buf, &cmd) == 1 && cmd.seq == 2);

    /* Too long: broken, then resync. */
    line_init(&l);
    uint8_t broken = 0;
    line_push(&l, '$');
    for (int i = 0; i < 100; i++)
        broken |= line_push(&l, 'A') == LINE_BROKEN;
    CHECK(broken);
    CHECK(feed(&l, text) == LINE_READY);
}

static void test_notch_decoding(void)
{
    thresholds_t t;
    thresholds_default(&t);
    CHECK(notch_level(0) == 171 && notch_level(2) == 512 && notch_level(4) == 853);
    CHECK(decode_notch(0, PF_NONE, &t) == PF_NONE);            /* no reed closed */
    CHECK(decode_notch(512, PF_NONE, &t) == 2);
    CHECK(decode_notch(512 + 30, PF_NONE, &t) == PF_NONE);     /* outside band */
    CHECK(decode_notch(512 + 30, 2, &t) == 2);                 /* inside hold */
    CHECK(decode_notch(512 + 61, 2, &t) == PF_NONE);
    CHECK(decode_notch(205, PF_NONE, &t) == PF_NONE);          /* reeds 0 and 1 both closed */
    CHECK(decode_notch(1023, PF_NONE, &t) == PF_NONE);
    CHECK(decode_board(1, 0) == 1 && decode_board(1, 1) == 2 && decode_board(0, 1) == 3);
    CHECK(decode_board(0, 0) == PF_NONE);
}

static void test_settle_time(void)
{
    tracker_t tr;
    tracker_init(&tr);
    CHECK(tracker_update(&tr, 3, 0, 50) == 0);
    CHECK(tracker_update(&tr, 3, 49, 50) == 0);
    CHECK(tracker_update(&tr, 3, 50, 50) == 1 && tr.reported == 3);
    /* Passing through notch 4 for 30 ms on the way to notch 2: never reported. */
    CHECK(tracker_update(&tr, PF_NONE, 60, 50) == 0);
    CHECK(tracker_update(&tr, 4, 70, 50) == 0);
    CHECK(tracker_update(&tr, 4, 100, 50) == 0);
    CHECK(tracker_update(&tr, PF_NONE, 101, 50) == 0);
    CHECK(tracker_update(&tr, 2, 110, 50) == 0);
    CHECK(tracker_update(&tr, 2, 170, 50) == 1 && tr.reported == 2);
    CHECK(tracker_update(&tr, PF_NONE, 2000, 50) == 0 && tr.reported == 2); /* never reports NONE */
    /* The clock wrapping around 2^32 ms does not break the timer. */
    tracker_init(&tr);
    CHECK(tracker_update(&tr, 1, 0xFFFFFFF0u, 50) == 0);
    CHECK(tracker_update(&tr, 1, 0x00000030u, 50) == 1);
}

static void test_thresholds(void)
{
    thresholds_t t;
    thresholds_default(&t);
    CHECK(thresholds_valid(&t));
    t.band = 70; t.hold = 60;
    CHECK(!thresholds_valid(&t));
    t.band = 60; t.hold = 81;
    CHECK(!thresholds_valid(&t));
    t.hold = 80; t.settle_ms = 2001;
    CHECK(!thresholds_valid(&t));
}

/* The same cases as hardware/sim/top_holes.py's HoleDetector (the Python board's mirror). */
static void test_top_hole_drops(void)
{
    hole_t h;
    uint8_t drops = 0;
    hole_init(&h, 0);
    for (uint32_t t = 0; t < 300; t++)               /* at boot: latched, nothing counts */
        drops += hole_update(&h, t == 50, t, PF_DROP_REARM_MS, 0);
    CHECK(drops == 0);
    /* A peg falling through: seen 12 ms, with a bounce in the middle. */
    for (uint32_t t = 1000; t < 1500; t++)
        drops += hole_update(&h, (t >= 1000 && t < 1005) || (t >= 1007 && t < 1012), t, PF_DROP_REARM_MS, 0);
    CHECK(drops == 1 && h.count == 1);
    /* A peg that stays in the hole for 10 s. */
    for (uint32_t t = 2000; t < 12000; t++)
        drops += hole_update(&h, 1, t, PF_DROP_REARM_MS, 0);
    CHECK(drops == 2 && h.count == 2);
    /* A new peg 100 ms after the hole cleared: too soon, the same passage. */
    for (uint32_t t = 12000; t < 12300; t++)
        drops += hole_update(&h, t == 12100, t, PF_DROP_REARM_MS, 0);
    CHECK(drops == 2);
    /* Carried in by the top slide: latched, not counted; counted once clear again. */
    for (uint32_t t = 13000; t < 13100; t++)
        drops += hole_update(&h, t >= 13050, t, PF_DROP_REARM_MS, 1);
    CHECK(drops == 2 && h.latched);
    for (uint32_t t = 13100; t < 14000; t++)
        drops += hole_update(&h, t == 13900, t, PF_DROP_REARM_MS, 0);
    CHECK(drops == 3 && h.count == 3);
    /* The count wraps like the protocol's (modulo 256), and the clock may wrap too. */
    h.count = 255;
    h.latched = 0;
    CHECK(hole_update(&h, 1, 0xFFFFFFF0u, PF_DROP_REARM_MS, 0) == 1 && h.count == 0);
    CHECK(hole_update(&h, 0, 0x00000100u, PF_DROP_REARM_MS, 0) == 0 && !h.latched);
}

int main(void)
{
    test_crc();
    test_frame_building();
    test_command_parsing();
    test_notch_decoding();
    test_settle_time();
    test_thresholds();
    test_top_hole_drops();
    if (failures) {
        printf("%d check(s) failed\n", failures);
        return 1;
    }
    printf("firmware host tests: all passed\n");
    return 0;
}
