/* count.c: a program that counts itself on the pmugen reference SoC (docs/soc.md §2).
 *
 * The PMU's control registers need ring 0, which on PicoRV32 and SERV (--kernel handler)
 * means "inside the IRQ handler", on Ibex machine mode: main() asks the handler through ECALL to program four
 * counters for user-mode INSTRET, LOAD, STORE and BRANCH_TAKEN, to let user code read
 * them (USER_ACCESS.RDPMC) and to start them; runs a small workload; asks the handler
 * to stop them; and prints the counts, read in user mode, beside PicoRV32's own
 * instruction counter (rdinstret) over the same stretch. Build and run:
 *     pmugen soc build examples/soc/count.c && pmugen soc run target/pmugen/soc/count.elf
 */
#include "soc.h"
#include "soc_pmu.h"

#define PMU(name) SOC_PMU(name)
#define EV(name) SOC_PMU_C(EV_##name)

enum request { REQUEST_START = 1, REQUEST_STOP = 2 };

static const PMU(event_t) events[4] = {EV(INSTRET), EV(LOAD), EV(STORE), EV(BRANCH_TAKEN)};
static const char *const names[4] = {"INSTRET", "LOAD", "STORE", "BRANCH_TAKEN"};

/* The kernel: requests come in a0 of the ECALL; the return address (regs[0]) is the
 * instruction after it. */
uint32_t *irq(uint32_t *regs, uint32_t irqs)
{
    if (irqs & (1u << SOC_IRQ_TRAP)) {
        PMU(t) pmu = PMU(open)(SOC_PMU_BASE, 0);
        if (regs[10] == REQUEST_START) {
            for (unsigned i = 0; i < 4; i++)
                PMU(program)(&pmu, i, events[i], SOC_PMU_C(PERF_EVTSEL_USR));
            PMU(user_access_write)(&pmu, SOC_PMU_C(USER_ACCESS_RDPMC));
            PMU(start)(&pmu, 0xF);
        } else if (regs[10] == REQUEST_STOP) {
            PMU(stop)(&pmu, 0xF);
        }
    }
    return regs;
}

static void request(enum request what)
{
    register uint32_t a0 __asm__("a0") = what;
    __asm__ volatile("ecall" : "+r"(a0) : : "memory");
}

/* The workload: loads, stores, taken and not-taken branches, calls. */
static volatile uint32_t table[32];

static __attribute__((noinline)) uint32_t mix(uint32_t x) { return (x << 3) ^ (x >> 2) ^ 0x5a; }

static __attribute__((noinline)) uint32_t workload(void)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < 32; i++)
        table[i] = mix(i);
    for (uint32_t round = 0; round < 4; round++)
        for (uint32_t i = 0; i < 32; i++)
            if (table[i] & 1)
                sum += table[i];
            else
                sum ^= mix(table[i]);
    return sum;
}

int main(void)
{
    uint32_t before = soc_rdinstret();
    request(REQUEST_START);
    uint32_t sum = workload();
    request(REQUEST_STOP);
    uint32_t after = soc_rdinstret();

    PMU(t) pmu = PMU(open)(SOC_PMU_BASE, 0);
    soc_puts("count: user-mode events of the workload (sum ");
    soc_put_hex(sum);
    soc_puts(")\n");
    for (unsigned i = 0; i < 4; i++) {
        soc_puts(names[i]);
        soc_puts(" ");
        soc_put_dec((uint32_t)PMU(perf_cntr_read)(&pmu, i));
        soc_puts("\n");
    }
    soc_puts("rdinstret ");
    soc_put_dec(after - before);
    soc_puts("\n");
    /* Every PMU access above was allowed: none answered ERR. */
    return soc_faults() == 0 ? 0 : 1;
}
