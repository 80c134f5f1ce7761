/* passeframe: build-time constants of the slide-frame sensor board.
 *
 * Wiring (see hardware/WIRING.md): slides 1..6 on A0..A5, each a resistor ladder whose
 * reed switches put 1/6..5/6 of AVCC on the pin (notch 0..4) and a 1 MOhm pull-down
 * that reads 0 V between notches; board switches A and B on D2 (PD2) and D3 (PD3) to
 * GND with the internal pull-ups: position 1 = A closed, 2 = A and B, 3 = B closed.
 * Top-hole sensors, one per column 0..6, on D4..D10 (PD4..PD7, PB0..PB2): a TCRT5000
 * module's comparator output, low while the sensor sees a peg (internal pull-ups too). */
#ifndef PASSEFRAME_CONFIG_H
#define PASSEFRAME_CONFIG_H

#define PF_FIRMWARE      "passeframe"
#define PF_VERSION       "1.1.0"
#define PF_PROTOCOL      2         /* 2: top-hole drops (DROP, d= in SNAP/HB, holes= in HELLO) */
#define PF_SLIDES        6
#define PF_NOTCHES       5
#define PF_BOARDS        3
#define PF_HOLES         7         /* top-hole sensors, one over each column of the window */
/* A hole counts a new drop only after its sensor has seen nothing for this long: a peg
 * bouncing in the hole, or two readings of one peg, count once (WIRING.md). */
#define PF_DROP_REARM_MS 200u
#define PF_BAUD          115200UL
#define PF_HEARTBEAT_MS  500u
#define PF_NONE          0xFFu     /* unknown notch or board position */

/* Longest frames, '$' to '\n' included (same limits as firmware_bridge/protocol.py). */
#define PF_MAX_DEVICE_FRAME  128u
#define PF_MAX_HOST_FRAME    64u

/* Default decoding thresholds (firmware_bridge/messages.py DEFAULT_THRESHOLDS). */
#define PF_DEFAULT_BAND       25u   /* ADC counts around a notch level to enter it */
#define PF_DEFAULT_HOLD       60u   /* ADC counts to stay in it (hysteresis) */
#define PF_DEFAULT_SETTLE_MS  50u   /* a new notch must hold this long to be reported */
#define PF_DEFAULT_DEBOUNCE_MS 20u  /* the board inputs must hold this long */
#define PF_MAX_BAND           80u   /* notch levels are 170.5 counts apart */
#define PF_MAX_SETTLE_MS      2000u
#define PF_MAX_DEBOUNCE_MS    1000u

#endif
