/* Entry point for the plain avr-gcc build (the Arduino IDE uses passeframe.ino). */
#include "passeframe.h"

int main(void)
{
    passeframe_setup();
    for (;;)
        passeframe_loop();
}
