/* board.c: the firmware that `pmugen soc --board` puts into the bitstream (docs/soc.md
 * §5); it runs on the simulated SoC too. Through soc_pmu.h it is written for whichever
 * PMU the system has (K counters, its driver's names). It prints the PMU's
 * identification (read by its IRQ handler, ring 0), asks the handler to count the user-mode instructions,
 * loads and taken branches of a small loop, and prints them beside PicoRV32's own
 * instruction count over the same stretch. On a board the console is the UART
 * (115200 baud, 8N1) and the exit lights an LED. */
#include "soc.h"
#include "soc_pmu.h"

#define K SOC_PMU_C(CFG_K)

enum request { REQUEST_START = 1, REQUEST_STOP = 2 };

static const SOC_PMU(event_t) events[3] = {SOC_PMU_C(EV_INSTRET), SOC_PMU_C(EV_BRANCH_TAKEN), SOC_PMU_C(EV_LOAD)};
static const char *const names[3] = {"INSTRET", "BRANCH_TAKEN", "LOAD"};
#define COUNTED (K < 3 ? K : 3)

static uint32_t pmu_id; /* PMU_ID, which only ring 0 may read */

/* The handler: requests come in a0 of the ECALL. */
uint32_t *irq(uint32_t *regs, uint32_t irqs)
{
    if (irqs & (1u << SOC_IRQ_TRAP)) {
        SOC_PMU(t) pmu = SOC_PMU(open)(SOC_PMU_BASE, 0);
        uint32_t mask = (1u << COUNTED) - 1;
        if (regs[10] == REQUEST_START) {
            pmu_id = (uint32_t)SOC_PMU(pmu_id_read)(&pmu);
            for (unsigned i = 0; i < COUNTED; i++)
                SOC_PMU(program)(&pmu, i, events[i], SOC_PMU_C(PERF_EVTSEL_USR));
            SOC_PMU(user_access_write)(&pmu, SOC_PMU_C(USER_ACCESS_RDPMC));
            SOC_PMU(start)(&pmu, mask);
        } else {
            SOC_PMU(stop)(&pmu, mask);
        }
    }
    return regs;
}

static void request(enum request what)
{
    register uint32_t a0 __asm__("a0") = what;
    __asm__ volatile("ecall" : "+r"(a0) : : "memory");
}

static volatile uint32_t table[16];

static __attribute__((noinline)) uint32_t loop(void)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < 16; i++)
        table[i] = i * 3;
    for (uint32_t i = 0; i < 16; i++)
        if (table[i] & 1)
            sum += table[i];
    return sum;
}

int main(void)
{
    SOC_PMU(t) pmu = SOC_PMU(open)(SOC_PMU_BASE, 0);
    uint32_t before = soc_rdinstret();
    request(REQUEST_START);
    uint32_t sum = loop();
    request(REQUEST_STOP);
    uint32_t after = soc_rdinstret();
    soc_puts("pmugen soc: PMU_ID 0x");
    soc_put_hex(pmu_id);
    soc_puts(", K ");
    soc_put_dec(K);
    soc_puts(SOC_HAS_MONITOR ? ", monitor\n" : ", no monitor\n");
    for (unsigned i = 0; i < COUNTED; i++) {
        soc_puts("board.");
        soc_puts(names[i]);
        soc_putchar('=');
        soc_put_dec((uint32_t)SOC_PMU(perf_cntr_read)(&pmu, i));
        soc_putchar('\n');
    }
    soc_puts("board.rdinstret=");
    soc_put_dec(after - before);
    soc_puts("\nboard.sum=");
    soc_put_dec(sum);
    soc_putchar('\n');
    return soc_faults() == 0 ? 0 : 1;
}
