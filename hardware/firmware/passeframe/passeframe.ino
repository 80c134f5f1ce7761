// passeframe: the Passe-Murailles slide-frame sensor board, as an Arduino sketch.
// Open this folder in the Arduino IDE, pick "Arduino Uno" or "Arduino Nano"
// (ATmega328P), upload. The code lives in src/ (plain C, also built by the Makefile one
// folder up); the protocol is in firmware_bridge/PROTOCOL.md, the wiring in
// hardware/WIRING.md. Do not use Serial, millis() or delay() here: the firmware owns
// UART0, Timer0 and the ADC.
#include "src/passeframe.h"

void setup() {
  passeframe_setup();
}

void loop() {
  passeframe_loop();
}
