#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>
#include "config.h"
#include "uart.h"

#define TX_SIZE 256u   /* uint8_t indexes wrap by themselves */
#define RX_SIZE 64u

static char tx_ring[TX_SIZE];
static volatile uint8_t tx_head, tx_tail;
static char rx_ring[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
static volatile uint16_t rx_errors;

void uart_init(void)
{
    UCSR0B = 0;
    UBRR0 = (uint16_t)((F_CPU / 8u + PF_BAUD / 2u) / PF_BAUD - 1u);
    UCSR0A = _BV(U2X0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);  /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

uint8_t uart_send(const char *data, uint8_t len)
{
    uint8_t ok = 0;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        uint8_t used = (uint8_t)(tx_head - tx_tail);
        if ((uint16_t)used + len < TX_SIZE) {
            for (uint8_t i = 0; i < len; i++)
                tx_ring[tx_head++] = data[i];
            UCSR0B |= _BV(UDRIE0);
            ok = 1;
        }
    }
    return ok;
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_ring[tx_tail++];
}

ISR(USART_RX_vect)
{
    uint8_t status = UCSR0A;   /* read before UDR0, as the datasheet asks */
    char c = (char)UDR0;
    uint8_t next = (uint8_t)((rx_head + 1u) % RX_SIZE);
    if ((status & (_BV(FE0) | _BV(DOR0))) || next == rx_tail) {
        rx_errors++;
        return;
    }
    rx_ring[rx_head] = c;
    rx_head = next;
}

int16_t uart_read(void)
{
    int16_t c = -1;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        if (rx_tail != rx_head) {
            c = (uint8_t)rx_ring[rx_tail];
            rx_tail = (uint8_t)((rx_tail + 1u) % RX_SIZE);
        }
    }
    return c;
}

uint16_t uart_rx_errors(void)
{
    uint16_t n;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        n = rx_errors;
    }
    return n;
}
