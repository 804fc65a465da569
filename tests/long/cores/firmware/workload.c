/* The testbenches' program (tests/long/cores): loads and stores of every width,
 * branches taken and not, calls, returns and jumps, system calls (ECALL), multiplies
 * and divides where the core has them, and timer interrupts arriving anywhere. */
#include <stdint.h>

#define TIMER_CMP (*(volatile uint32_t *)0x10000020)
#define TIMER_NOW (*(volatile uint32_t *)0x10000024)

/* Interrupts taken, and the period between them (cycles). */
#define TICKS 7
#define PERIOD 9000

volatile uint32_t ticks, calls;

/* The kernel: a timer tick re-arms the timer (until TICKS), a system call doubles a0. */
__attribute__((section(".text.kernel"))) uint32_t trap(uint32_t cause, uint32_t epc, uint32_t *regs)
{
    if (cause & 0x80000000u) {
        ticks++;
        TIMER_CMP = ticks < TICKS ? TIMER_NOW + PERIOD : 0;
        return epc;
    }
    calls++;
    regs[4] <<= 1; /* a0 */
    return epc + 4;
}

static inline uint32_t syscall(uint32_t value)
{
    register uint32_t a0 asm("a0") = value;
    asm volatile("ecall" : "+r"(a0) : : "memory");
    return a0;
}

static uint32_t words[32];
static uint16_t halves[32];
static uint8_t bytes[32];

__attribute__((noinline)) static uint32_t mix(uint32_t n)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        words[i & 31] += i;
        halves[(i * 3) & 31] ^= (uint16_t)sum;
        bytes[(i * 5) & 31] += (uint8_t)i;
        sum += words[(i * 7) & 31] + halves[i & 31] + bytes[(i * 11) & 31];
        if (sum & 1)
            sum ^= 0x55;
    }
    return sum;
}

__attribute__((noinline)) static uint32_t arithmetic(uint32_t a, uint32_t b)
{
    return a * b + a / (b | 1) + a % (b | 3);
}

int main(void)
{
    TIMER_CMP = TIMER_NOW + 2000;
    uint32_t sum = 0;
    for (uint32_t k = 0; k < 12; k++) {
        sum += mix(20 + k);
        sum += syscall(k);
        sum += arithmetic(sum, k + 3);
    }
    while (ticks < TICKS)
        sum += mix(4);
    return sum == 0x12345678 ? 1 : 0;
}
