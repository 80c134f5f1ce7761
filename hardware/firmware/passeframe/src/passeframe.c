#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>
#include "clock.h"
#include "config.h"
#include "decode.h"
#include "frame.h"
#include "passeframe.h"
#include "sensors.h"
#include "settings.h"
#include "uart.h"

/* Reset cause, saved before anything clears it (and the watchdog stopped, so a
 * watchdog reset does not loop). .init3 runs before main and before the C runtime's
 * zeroing of .bss, hence .noinit. */
static uint8_t reset_flags __attribute__((section(".noinit")));
void passeframe_early_init(void) __attribute__((naked, used, section(".init3")));
void passeframe_early_init(void)
{
    reset_flags = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

static frame_t out;
static line_t in;
static thresholds_t limits;
static tracker_t slide_tracker[PF_SLIDES];
static tracker_t board_tracker;
static hole_t holes[PF_HOLES];
static uint16_t seq;
static uint32_t next_heartbeat;
static uint32_t boot_state_at;     /* the first full state waits for the sensors to settle */
static uint8_t boot_state_pending;
static uint8_t state_requested;

static void send(void)
{
    uint8_t len = frame_end(&out);
    /* A frame that does not fit the ring is lost, but its number is used: the host
     * sees the gap and asks for a full state. */
    if (len)
        uart_send(out.buf, len);
    seq++;
}

static void begin(const char *type_flash)
{
    frame_begin(&out, type_flash, seq);
    frame_field_u32(&out, PF_STR("t"), clock_now());
}

static void position_char(uint8_t value, uint8_t base)
{
    frame_char(&out, value == PF_NONE ? '?' : (char)('0' + base + value));
}

static void send_hello(const char *why_flash)
{
    begin(PF_STR("HELLO"));
    frame_key(&out, PF_STR("fw"));
    frame_text(&out, PF_STR(PF_FIRMWARE));
    frame_key(&out, PF_STR("ver"));
    frame_text(&out, PF_STR(PF_VERSION));
    frame_field_u32(&out, PF_STR("proto"), PF_PROTOCOL);
    frame_field_u32(&out, PF_STR("slides"), PF_SLIDES);
    frame_field_u32(&out, PF_STR("notches"), PF_NOTCHES);
    frame_field_u32(&out, PF_STR("boards"), PF_BOARDS);
    frame_field_u32(&out, PF_STR("holes"), PF_HOLES);
    frame_key(&out, PF_STR("why"));
    frame_text(&out, why_flash);
    frame_key(&out, PF_STR("rst"));
    uint8_t any = 0;
    if (reset_flags & _BV(PORF)) { frame_char(&out, 'p'); any = 1; }
    if (reset_flags & _BV(EXTRF)) { frame_char(&out, 'e'); any = 1; }
    if (reset_flags & _BV(BORF)) { frame_char(&out, 'b'); any = 1; }
    if (reset_flags & _BV(WDRF)) { frame_char(&out, 'w'); any = 1; }
    if (!any) frame_char(&out, '-');
    send();
}

/* SNAP (why given) or HB (why 0): the full state. */
static void send_state(const char *type_flash, const char *why_flash)
{
    begin(type_flash);
    frame_key(&out, PF_STR("s"));
    for (uint8_t i = 0; i < PF_SLIDES; i++) {
        if (i) frame_char(&out, ',');
        position_char(slide_tracker[i].reported, 0);
    }
    frame_key(&out, PF_STR("b"));
    position_char(board_tracker.reported, 0);
    frame_key(&out, PF_STR("d"));
    for (uint8_t i = 0; i < PF_HOLES; i++) {
        if (i) frame_char(&out, ',');
        frame_u32(&out, holes[i].count);
    }
    if (why_flash) {
        frame_key(&out, PF_STR("why"));
        frame_text(&out, why_flash);
    }
    send();
}

static void send_reply_head(const char *type_flash, uint16_t re)
{
    begin(type_flash);
    frame_field_u32(&out, PF_STR("re"), re);
}

static void send_nak(const command_t *cmd, const char *why_flash)
{
    if (cmd)
        send_reply_head(PF_STR("NAK"), cmd->seq);
    else
        begin(PF_STR("NAK"));
    frame_key(&out, PF_STR("why"));
    frame_text(&out, why_flash);
    send();
}

static void send_thresholds_ack(uint16_t re)
{
    send_reply_head(PF_STR("ACK"), re);
    frame_field_u32(&out, PF_STR("band"), limits.band);
    frame_field_u32(&out, PF_STR("hold"), limits.hold);
    frame_field_u32(&out, PF_STR("settle"), limits.settle_ms);
    frame_field_u32(&out, PF_STR("debounce"), limits.debounce_ms);
    send();
}

static uint8_t apply_thresholds(const command_t *cmd)
{
    thresholds_t next = limits;
    for (uint8_t i = 0; i < cmd->nfields; i++) {
        uint16_t v;
        if (!parse_u16(cmd->value[i], &v))
            return 0;
        if (text_equals(cmd->key[i], PF_STR("band")) && v <= 255) next.band = (uint8_t)v;
        else if (text_equals(cmd->key[i], PF_STR("hold")) && v <= 255) next.hold = (uint8_t)v;
        else if (text_equals(cmd->key[i], PF_STR("settle"))) next.settle_ms = v;
        else if (text_equals(cmd->key[i], PF_STR("debounce"))) next.debounce_ms = v;
        else return 0;
    }
    if (!thresholds_valid(&next))
        return 0;
    if (cmd->nfields) {
        limits = next;
        settings_save(&limits);
    }
    return 1;
}

static void handle_command(command_t *cmd)
{
    if (text_equals(cmd->type, PF_STR("HELLO"))) {
        send_hello(PF_STR("req"));
        state_requested = 1;
    } else if (text_equals(cmd->type, PF_STR("SNAP"))) {
        state_requested = 1;
    } else if (text_equals(cmd->type, PF_STR("PING"))) {
        const char *token = command_field(cmd, PF_STR("n"));
        send_reply_head(PF_STR("PONG"), cmd->seq);
        frame_key(&out, PF_STR("n"));
        while (token && *token) frame_char(&out, *token++);
        if (!token) frame_char(&out, '0');
        frame_field_u32(&out, PF_STR("rxerr"), uart_rx_errors());
        send();
    } else if (text_equals(cmd->type, PF_STR("SET"))) {
        if (apply_thresholds(cmd))
            send_thresholds_ack(cmd->seq);
        else
            send_nak(cmd, PF_STR("range"));
    } else {
        send_nak(cmd, PF_STR("type"));
    }
}

static void read_host(void)
{
    int16_t c;
    command_t cmd;
    while ((c = uart_read()) >= 0) {
        uint8_t r = line_push(&in, (char)c);
        if (r == LINE_BROKEN) {
            send_nak(0, PF_STR("frame"));
        } else if (r == LINE_READY) {
            if (command_parse(in.buf, &cmd))
                handle_command(&cmd);
            else
                send_nak(0, PF_STR("frame"));
        }
    }
}

static void read_sensors(uint32_t now)
{
    for (uint8_t i = 0; i < PF_SLIDES; i++) {
        uint8_t candidate = decode_notch(sensors_ladder(i), slide_tracker[i].reported, &limits);
        if (tracker_update(&slide_tracker[i], candidate, now, limits.settle_ms) && !boot_state_pending) {
            begin(PF_STR("EV"));
            frame_char(&out, ' ');
            frame_char(&out, 's');
            frame_char(&out, (char)('1' + i));
            frame_char(&out, '=');
            position_char(slide_tracker[i].reported, 0);
            send();
        }
    }
    uint8_t position = decode_board(sensors_switch_a(), sensors_switch_b());
    if (tracker_update(&board_tracker, position, now, limits.debounce_ms) && !boot_state_pending) {
        begin(PF_STR("EV"));
        frame_key(&out, PF_STR("b"));
        position_char(board_tracker.reported, 0);
        send();
    }
    /* While the top slide is off its reported notch, a peg coming into a sensor's view
     * is one it carries in a hole, not a drop. */
    uint8_t top_moving = slide_tracker[0].pending != slide_tracker[0].reported;
    uint8_t seen = sensors_holes_seen();
    for (uint8_t i = 0; i < PF_HOLES; i++) {
        if (hole_update(&holes[i], (uint8_t)((seen >> i) & 1u), now, PF_DROP_REARM_MS, top_moving)
            && !boot_state_pending) {
            begin(PF_STR("DROP"));
            frame_field_u32(&out, PF_STR("c"), i);
            frame_field_u32(&out, PF_STR("n"), holes[i].count);
            send();
        }
    }
}

void passeframe_setup(void)
{
    cli();
    clock_init();
    uart_init();
    sensors_init();
    settings_load(&limits);
    line_init(&in);
    for (uint8_t i = 0; i < PF_SLIDES; i++)
        tracker_init(&slide_tracker[i]);
    tracker_init(&board_tracker);
    for (uint8_t i = 0; i < PF_HOLES; i++)
        hole_init(&holes[i], 0);
    seq = 0;
    sei();
    send_hello(PF_STR("boot"));
    uint16_t wait = limits.settle_ms > limits.debounce_ms ? limits.settle_ms : limits.debounce_ms;
    boot_state_at = clock_now() + wait + 5u;
    boot_state_pending = 1;
    next_heartbeat = clock_now() + PF_HEARTBEAT_MS;
#ifndef PF_NO_WATCHDOG
    wdt_enable(WDTO_500MS);
#endif
}

void passeframe_loop(void)
{
    clock_wait_tick();
#ifndef PF_NO_WATCHDOG
    wdt_reset();
#endif
    uint32_t now = clock_now();
    read_host();
    read_sensors(now);
    if (boot_state_pending && (int32_t)(now - boot_state_at) >= 0) {
        boot_state_pending = 0;
        send_state(PF_STR("SNAP"), PF_STR("boot"));
        state_requested = 0;
    } else if (state_requested && !boot_state_pending) {
        state_requested = 0;
        send_state(PF_STR("SNAP"), PF_STR("req"));
    }
    if ((int32_t)(now - next_heartbeat) >= 0) {
        next_heartbeat += PF_HEARTBEAT_MS;
        if ((int32_t)(now - next_heartbeat) >= 0)
            next_heartbeat = now + PF_HEARTBEAT_MS;
        send_state(PF_STR("HB"), 0);
    }
}
