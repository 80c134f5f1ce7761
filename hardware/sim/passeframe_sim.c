/* passeframe_sim: runs the passeframe firmware ELF in simavr, UART0 on a pseudo-terminal.
 *
 *   passeframe_sim FIRMWARE.elf LINK_PATH [--speed 1.0] [--no-dtr-reset]
 *
 * The pty slave is reachable at LINK_PATH (a symlink that is replaced on every plug).
 * Why a harness: the simavr command has no UART-to-pty option, runs busy-loop firmware
 * several times faster than real time (it syncs to the wall clock only on SLEEP) and
 * offers no way to set analog inputs. Here the simulation is paced to the wall clock
 * (cycles are run in slices of at most 1 ms and the loop sleeps while it is ahead), and
 * the inputs are set by commands, one per line on stdin:
 *
 *   adc CH MV        analog input CH (0..7) to MV millivolts (AVCC is 5000 mV)
 *   pin PB LEVEL     drive pin PB (e.g. D2) to 0 (switch closed) or 1 (switch open)
 *   pulse PB LEVEL US  drive pin PB to LEVEL for US microseconds of simulated time, then
 *                    back to the other level (a peg passing a top-hole sensor: D4 0 12000)
 *   run              start the MCU (the harness starts halted, so inputs can be set first)
 *   reset            the reset button
 *   unplug           power off and remove the port (LINK_PATH disappears)
 *   plug             new pty at LINK_PATH, power on
 *   time             reply with the simulated time in ms
 *   quit
 *
 * Replies go to stdout as lines starting with '@' ("@ok CMD", "@err ...", "@pty PATH",
 * "@time MS", "@host open|closed", "@reset"); simavr prints its own lines there too,
 * which readers skip. Like an Arduino's DTR auto-reset, the MCU is reset a moment after
 * the host opens the port (pyserial's open() flushes the input, so a HELLO sent before
 * that would be lost); --no-dtr-reset turns this off. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "sim_avr.h"
#include "sim_cycle_timers.h"
#include "sim_elf.h"
#include "sim_irq.h"
#include "avr_adc.h"
#include "avr_extint.h"
#include "avr_ioport.h"
#include "avr_uart.h"

#define FREQUENCY 16000000u
#define AVCC_MV 5000u
#define BAUD_BYTES_PER_S 11520u       /* 115200 baud, 10 bits a byte */
#define DTR_RESET_DELAY_NS 20000000ull /* reset 20 ms after the host opened the port */
#define MAX_LAG_NS 100000000ull        /* further behind than this: stop catching up */
#define QUEUE 8192

typedef struct {
    uint8_t data[QUEUE];
    size_t head, tail;
} queue_t;

typedef struct {
    char port;
    int bit;
    int level;
} driven_pin_t;

static struct {
    avr_t *avr;
    const char *link_path;
    double speed;
    int dtr_reset;
    int master;                 /* -1 while unplugged */
    int host_open;
    int running;
    uint64_t base_ns, base_cycle;
    uint64_t next_feed_cycle;
    uint64_t reset_at_ns;       /* pending DTR reset, 0 if none */
    int xoff;
    queue_t to_mcu, to_host;
    uint32_t adc_mv[8];
    driven_pin_t pins[16];
    int npins;
    char line[256];
    size_t line_len;
} sim;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void reply(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputc('@', stdout);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    fflush(stdout);
    va_end(ap);
}

static int queue_push(queue_t *q, uint8_t b)
{
    size_t next = (q->head + 1) % QUEUE;
    if (next == q->tail)
        return 0;
    q->data[q->head] = b;
    q->head = next;
    return 1;
}

static int queue_empty(const queue_t *q) { return q->head == q->tail; }
static void queue_clear(queue_t *q) { q->head = q->tail = 0; }

/* ---- simavr hooks ---- */

static void uart_out_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)param;
    if (sim.master >= 0 && sim.host_open)  /* nobody listening: the byte is lost */
        queue_push(&sim.to_host, (uint8_t)value);
}

static void uart_xon_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)value; (void)param;
    sim.xoff = 0;
}

static void uart_xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq; (void)param;
    sim.xoff = value != 0;
}

/* Our pacing does the sleeping: simavr's own would sleep on top of it. */
static void no_sleep(avr_t *avr, avr_cycle_count_t how_long)
{
    (void)avr; (void)how_long;
}

/* ---- inputs ---- */

static void apply_adc(int channel)
{
    avr_raise_irq(avr_io_getirq(sim.avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0 + channel), sim.adc_mv[channel]);
}

static void apply_pin(const driven_pin_t *p, int force)
{
    /* Declare the level as the pin's external state, so the firmware enabling its pull-up
     * does not override a closed switch; then raise the pin IRQ itself. IRQs are filtered
     * (same value = no effect) and keep their value across avr_reset while PINx is
     * cleared, so force a change by raising the opposite level first. */
    avr_ioport_external_t ext = {.name = p->port, .mask = 0, .value = 0};
    for (int i = 0; i < sim.npins; i++)
        if (sim.pins[i].port == p->port) {
            ext.mask |= (uint8_t)(1u << sim.pins[i].bit);
            ext.value |= (uint8_t)((sim.pins[i].level & 1) << sim.pins[i].bit);
        }
    avr_ioctl(sim.avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(p->port), &ext);
    avr_irq_t *irq = avr_io_getirq(sim.avr, AVR_IOCTL_IOPORT_GETIRQ(p->port), p->bit);
    if (force)
        avr_raise_irq(irq, !p->level);
    avr_raise_irq(irq, p->level);
}

static void reapply_inputs(void)
{
    for (int ch = 0; ch < 8; ch++)
        apply_adc(ch);
    for (int i = 0; i < sim.npins; i++)
        apply_pin(&sim.pins[i], 1);
}

/* End of a pulse: the pin goes back to the other level, on the simulated clock. */
static avr_cycle_count_t pulse_end(avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)avr; (void)when;
    driven_pin_t *p = param;
    p->level = !p->level;
    apply_pin(p, 0);
    return 0;
}

/* The firmware never enables INT0/INT1, but simavr polls a low INT0/INT1 pin on every
 * cycle while the pins are in (default) low-level mode: a closed board switch on D2/D3
 * would cost most of a core. Level polling off; edges are unaffected. Needed after every
 * reset, which turns it back on. */
static void quiet_external_interrupts(void)
{
    avr_extint_set_strict_lvl_trig(sim.avr, 0, 0);
    avr_extint_set_strict_lvl_trig(sim.avr, 1, 0);
}

static void mcu_reset(void)
{
    avr_reset(sim.avr);
    quiet_external_interrupts();
    reapply_inputs();
    queue_clear(&sim.to_mcu);
    sim.xoff = 0;
    sim.next_feed_cycle = sim.avr->cycle;
    sim.base_ns = now_ns();
    sim.base_cycle = sim.avr->cycle;
    reply("reset");
}

/* ---- the port ---- */

static int port_plug(void)
{
    int master, slave;
    char name[256];
    if (openpty(&master, &slave, name, NULL, NULL) < 0)
        return -1;
    struct termios tio;
    tcgetattr(slave, &tio);
    cfmakeraw(&tio);            /* raw before anything is written: no echo */
    tcsetattr(slave, TCSANOW, &tio);
    close(slave);               /* the master now sees POLLHUP until the host opens it */
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.new", sim.link_path);
    unlink(tmp);
    if (symlink(name, tmp) < 0 || rename(tmp, sim.link_path) < 0) {
        close(master);
        return -1;
    }
    sim.master = master;
    sim.host_open = 0;
    reply("pty %s", name);
    return 0;
}

static void port_unplug(void)
{
    unlink(sim.link_path);
    if (sim.master >= 0)
        close(sim.master);
    sim.master = -1;
    sim.host_open = 0;
    queue_clear(&sim.to_host);
    queue_clear(&sim.to_mcu);
}

static void port_poll_host(void)
{
    if (sim.master < 0)
        return;
    struct pollfd p = {.fd = sim.master, .events = POLLIN};
    poll(&p, 1, 0);
    int open_now = !(p.revents & POLLHUP);
    if (open_now && !sim.host_open) {
        reply("host open");
        if (sim.dtr_reset && sim.running)
            sim.reset_at_ns = now_ns() + DTR_RESET_DELAY_NS;
    } else if (!open_now && sim.host_open) {
        reply("host closed");
        queue_clear(&sim.to_host);
    }
    sim.host_open = open_now;
    if (open_now && (p.revents & POLLIN)) {
        uint8_t buf[512];
        ssize_t n = read(sim.master, buf, sizeof buf);
        for (ssize_t i = 0; i < n; i++)
            queue_push(&sim.to_mcu, buf[i]);
    }
}

static void port_flush(void)
{
    while (sim.master >= 0 && !queue_empty(&sim.to_host)) {
        size_t end = sim.to_host.head >= sim.to_host.tail ? sim.to_host.head : QUEUE;
        ssize_t n = write(sim.master, sim.to_host.data + sim.to_host.tail, end - sim.to_host.tail);
        if (n <= 0) {
            if (n < 0 && errno != EAGAIN)
                queue_clear(&sim.to_host);
            return;              /* pty full: keep the rest for the next turn */
        }
        sim.to_host.tail = (sim.to_host.tail + (size_t)n) % QUEUE;
    }
}

/* Host bytes enter the UART no faster than the line rate. */
static void feed_uart(void)
{
    uint64_t cycles_per_byte = FREQUENCY / BAUD_BYTES_PER_S;
    avr_irq_t *in = avr_io_getirq(sim.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    if (sim.next_feed_cycle + 8 * cycles_per_byte < sim.avr->cycle)
        sim.next_feed_cycle = sim.avr->cycle;  /* idle line: no burst credit */
    while (!queue_empty(&sim.to_mcu) && !sim.xoff && sim.next_feed_cycle <= sim.avr->cycle) {
        uint8_t b = sim.to_mcu.data[sim.to_mcu.tail];
        sim.to_mcu.tail = (sim.to_mcu.tail + 1) % QUEUE;
        avr_raise_irq(in, b);
        sim.next_feed_cycle += cycles_per_byte;
    }
}

/* ---- commands ---- */

static driven_pin_t *pin_slot(char port, int bit)
{
    for (int i = 0; i < sim.npins; i++)
        if (sim.pins[i].port == port && sim.pins[i].bit == bit)
            return &sim.pins[i];
    if (sim.npins >= (int)(sizeof sim.pins / sizeof sim.pins[0]))
        return NULL;
    driven_pin_t *p = &sim.pins[sim.npins++];
    p->port = port;
    p->bit = bit;
    p->level = 1;
    return p;
}

static int command(char *line)
{
    char name[16] = "";
    char arg1[16] = "";
    long arg2 = 0;
    int n = sscanf(line, "%15s %15s %ld", name, arg1, &arg2);  /* pulse reads its third below */
    if (n < 1)
        return 1;
    if (!strcmp(name, "adc") && n == 3) {
        long ch = strtol(arg1, NULL, 10);
        if (ch < 0 || ch > 7 || arg2 < 0 || arg2 > (long)AVCC_MV) {
            reply("err adc channel 0..7, 0..%u mV", AVCC_MV);
            return 1;
        }
        sim.adc_mv[ch] = (uint32_t)arg2;
        apply_adc((int)ch);
    } else if (!strcmp(name, "pin") && n == 3) {
        driven_pin_t *p = NULL;
        if (strlen(arg1) == 2 && arg1[0] >= 'B' && arg1[0] <= 'D' && arg1[1] >= '0' && arg1[1] <= '7')
            p = pin_slot(arg1[0], arg1[1] - '0');
        if (!p || (arg2 != 0 && arg2 != 1)) {
            reply("err pin B0..D7 0|1");
            return 1;
        }
        p->level = (int)arg2;
        apply_pin(p, 0);
    } else if (!strcmp(name, "pulse") && n == 3) {
        char port_name[16] = "";
        long level = -1, usec = 0;
        driven_pin_t *p = NULL;
        if (sscanf(line, "%*s %15s %ld %ld", port_name, &level, &usec) == 3 && strlen(port_name) == 2
            && port_name[0] >= 'B' && port_name[0] <= 'D' && port_name[1] >= '0' && port_name[1] <= '7')
            p = pin_slot(port_name[0], port_name[1] - '0');
        if (!p || (level != 0 && level != 1) || usec < 1 || usec > 10000000) {
            reply("err pulse B0..D7 0|1 1..10000000 us");
            return 1;
        }
        p->level = (int)level;
        apply_pin(p, 0);
        avr_cycle_timer_register(sim.avr, (avr_cycle_count_t)usec * (FREQUENCY / 1000000u), pulse_end, p);
    } else if (!strcmp(name, "run")) {
        if (!sim.running) {
            sim.running = 1;
            sim.base_ns = now_ns();
            sim.base_cycle = sim.avr->cycle;
        }
    } else if (!strcmp(name, "reset")) {
        mcu_reset();
    } else if (!strcmp(name, "unplug")) {
        port_unplug();
        sim.running = 0;        /* USB-powered: no cable, no power */
        sim.reset_at_ns = 0;
    } else if (!strcmp(name, "plug")) {
        if (sim.master < 0 && port_plug() < 0) {
            reply("err cannot create the pty: %s", strerror(errno));
            return 1;
        }
        mcu_reset();
        sim.running = 1;
    } else if (!strcmp(name, "time")) {
        reply("time %llu", (unsigned long long)(sim.avr->cycle * 1000ull / FREQUENCY));
    } else if (!strcmp(name, "quit")) {
        reply("ok quit");
        return 0;
    } else {
        reply("err unknown command %s", name);
        return 1;
    }
    reply("ok %s", name);
    return 1;
}

static int read_commands(void)
{
    char buf[256];
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n <= 0)
        return 0;               /* the controlling process went away */
    for (ssize_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            sim.line[sim.line_len] = 0;
            sim.line_len = 0;
            if (!command(sim.line))
                return 0;
        } else if (sim.line_len + 1 < sizeof sim.line) {
            sim.line[sim.line_len++] = buf[i];
        }
    }
    return 1;
}

/* ---- the paced loop ---- */

static void run_slice(uint64_t now)
{
    uint64_t target = sim.base_cycle + (uint64_t)((double)(now - sim.base_ns) * FREQUENCY * sim.speed / 1e9);
    if (target > sim.avr->cycle + (uint64_t)(MAX_LAG_NS * FREQUENCY / 1000000000ull)) {
        sim.base_ns = now;      /* the host was too busy: drop the lost time, do not burst */
        sim.base_cycle = sim.avr->cycle;
        target = sim.avr->cycle;
    }
    /* Run up to half a millisecond ahead of the wall clock, then sleep until it catches
     * up: stopping exactly at the target would spin on tiny slices. One slice is at most
     * 1 ms, so commands and port bytes are looked at every millisecond. */
    uint64_t limit = target + FREQUENCY / 2000u;
    if (limit > sim.avr->cycle + FREQUENCY / 1000u)
        limit = sim.avr->cycle + FREQUENCY / 1000u;
    while (sim.avr->cycle < limit) {
        int state = avr_run(sim.avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            reply("err the MCU stopped (state %d)", state);
            sim.running = 0;
            return;
        }
        if (!queue_empty(&sim.to_mcu))
            feed_uart();
    }
}

static int wait_ns(uint64_t now)
{
    if (!sim.running)
        return 20000000;
    uint64_t target = sim.base_cycle + (uint64_t)((double)(now - sim.base_ns) * FREQUENCY * sim.speed / 1e9);
    if (sim.avr->cycle <= target)
        return 0;
    return (int)((double)(sim.avr->cycle - target) * 1e9 / FREQUENCY / sim.speed);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s FIRMWARE.elf LINK_PATH [--speed X] [--no-dtr-reset]\n", argv[0]);
        return 2;
    }
    sim.link_path = argv[2];
    sim.speed = 1.0;
    sim.dtr_reset = 1;
    sim.master = -1;
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--speed") && i + 1 < argc)
            sim.speed = atof(argv[++i]);
        else if (!strcmp(argv[i], "--no-dtr-reset"))
            sim.dtr_reset = 0;
    }
    if (sim.speed <= 0.0)
        sim.speed = 1.0;

    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(argv[1], &fw) != 0) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    sim.avr = avr_make_mcu_by_name("atmega328p");
    if (!sim.avr || avr_init(sim.avr) != 0) {
        fprintf(stderr, "simavr has no atmega328p\n");
        return 1;
    }
    avr_load_firmware(sim.avr, &fw);
    /* No .mmcu section in a plain avr-gcc ELF: say what the board is. */
    sim.avr->frequency = FREQUENCY;
    sim.avr->vcc = sim.avr->avcc = sim.avr->aref = AVCC_MV;
    sim.avr->sleep = no_sleep;
    quiet_external_interrupts();

    uint32_t flags = 0;   /* no console echo of the UART, no usleep when polling it */
    avr_ioctl(sim.avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_register_notify(avr_io_getirq(sim.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out_hook, NULL);
    avr_irq_register_notify(avr_io_getirq(sim.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_xon_hook, NULL);
    avr_irq_register_notify(avr_io_getirq(sim.avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_xoff_hook, NULL);

    if (port_plug() < 0) {
        fprintf(stderr, "cannot create the pty at %s: %s\n", sim.link_path, strerror(errno));
        return 1;
    }
    reply("ready");

    for (;;) {
        uint64_t now = now_ns();
        if (sim.reset_at_ns && now >= sim.reset_at_ns) {
            sim.reset_at_ns = 0;
            mcu_reset();
        }
        if (sim.running)
            run_slice(now);
        port_flush();
        int wait = wait_ns(now_ns());
        struct pollfd fds[2] = {{.fd = STDIN_FILENO, .events = POLLIN}, {.fd = -1}};
        if (sim.master >= 0 && sim.host_open)
            fds[1] = (struct pollfd){.fd = sim.master, .events = POLLIN};
        /* Not connected: look for the host opening the port at least every 2 ms. */
        if (!(sim.master >= 0 && sim.host_open) && sim.master >= 0 && wait > 2000000)
            wait = 2000000;
        struct timespec ts = {.tv_sec = wait / 1000000000, .tv_nsec = wait % 1000000000};
        if (ppoll(fds, 2, &ts, NULL) > 0 && (fds[0].revents & (POLLIN | POLLHUP)))
            if (!read_commands())
                break;
        port_poll_host();
    }
    port_unplug();
    avr_terminate(sim.avr);
    return 0;
}
