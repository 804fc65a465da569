/* main.c: a firmware that counts its own work with pmugen's PMU in a LiteX SoC
 * (docs/litex.md §3, §4), built with LiteX's software flow and booted by its BIOS.
 *
 * PicoRV32 has no privilege modes: the PMU is generated with `--core picorv32` (`--kernel handler`), so
 * the code outside interrupt handlers is user code (ring 3) and the handlers are the
 * kernel (ring 0). The bus input wb_priv is left unconnected (1): every bus access is
 * privileged, so main() programs the PMU itself. For two sizes of a workload it counts
 * every INSTRET and, with enough counters, user-mode INSTRET and BRANCH_TAKEN, beside
 * PicoRV32's own instruction counter (rdinstret, which LiteX's minimal PicoRV32 does
 * not have) over the same stretch, and prints them; the differences between the two
 * sizes are the workload's alone (the fixed cost of starting and stopping cancels), so
 * INSTRET's must equal rdinstret's.
 *
 * The Makefile names the generated tops: PMU_DRIVER, PMU_REGS, PMU_PREFIX (lower case) and
 * PMU_MACRO (upper case), MONITOR_DRIVER and MONITOR_PREFIX.
 */
#include <stdint.h>
#include <stdio.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <generated/soc.h>
#include <irq.h>
#include <libbase/uart.h>

#include PMU_DRIVER
#include PMU_REGS

#define PASTE_(a, b) a##_##b
#define PASTE(a, b) PASTE_(a, b)
#define PMU(name) PASTE(PMU_PREFIX, name)
#define PMU_CONSTANT(name) PASTE(PMU_MACRO, name)
#define PMU_COUNTERS PMU_CONSTANT(COUNTERS)

/* The monitor, when the SoC has one (its region gives MONITOR_BASE). */
#ifdef MONITOR_BASE
#include MONITOR_DRIVER
#define MONITOR(name) PASTE(MONITOR_PREFIX, name)
#endif

#if !defined(CONFIG_CPU_VARIANT_MINIMAL)
#define HAS_RDINSTRET 1
static uint32_t rdinstret(void)
{
    uint32_t count;
    __asm__ volatile("rdinstret %0" : "=r"(count));
    return count;
}
#else
#define HAS_RDINSTRET 0
static uint32_t rdinstret(void) { return 0; }
#endif

/* The workload: a rolling checksum over a table it keeps rewriting (loads, stores,
 * shifts, data-dependent branches). */
static volatile uint32_t table[64];

static __attribute__((noinline)) uint32_t workload(unsigned rounds)
{
    uint32_t checksum = 0;
    for (unsigned round = 0; round < rounds; round++) {
        for (uint32_t i = 0; i < 64; i++)
            table[i] = (table[i] << 5) + table[i] + i + round;
        for (uint32_t i = 0; i < 64; i++) {
            uint32_t word = table[i];
            checksum = (checksum << 1 | checksum >> 31) + ((word & 0xff) ? word : 1);
        }
    }
    return checksum;
}

/* What counter i counts, as many as there are counters. */
static const char *const names[3] = {"instret", "user_instret", "branch_taken"};

static void measure(PMU(t) *pmu, unsigned rounds)
{
    const PMU(event_t) events[3] = {PMU_CONSTANT(EV_INSTRET), PMU_CONSTANT(EV_INSTRET), PMU_CONSTANT(EV_BRANCH_TAKEN)};
    const uint64_t both = PMU_CONSTANT(PERF_EVTSEL_USR) | PMU_CONSTANT(PERF_EVTSEL_OS);
    const uint64_t rings[3] = {both, PMU_CONSTANT(PERF_EVTSEL_USR), both};
    const unsigned used = PMU_COUNTERS < 3 ? PMU_COUNTERS : 3;
    for (unsigned i = 0; i < used; i++) {
        PMU(perf_cntr_write)(pmu, i, 0);
        PMU(program)(pmu, i, events[i], rings[i]);
    }
    /* No interrupt inside the window: both counts see the same instructions. */
    irq_setie(0);
    uint32_t before = rdinstret();
    PMU(start)(pmu, (1u << used) - 1);
    uint32_t checksum = workload(rounds);
    PMU(stop)(pmu, (1u << used) - 1);
    uint32_t after = rdinstret();
    irq_setie(1);
    printf("pmugen: rounds %u checksum %08lx", rounds, (unsigned long)checksum);
    for (unsigned i = 0; i < used; i++)
        printf(" %s %lu", names[i], (unsigned long)PMU(perf_cntr_read)(pmu, i));
    if (HAS_RDINSTRET)
        printf(" rdinstret %lu", (unsigned long)(after - before));
    printf("\n");
}

int main(void)
{
#ifdef CONFIG_CPU_HAS_INTERRUPT
    irq_setmask(0);
    irq_setie(1);
#endif
    uart_init();
    PMU(t) pmu = PMU(open)(PMU_BASE, 0);
    uint64_t id = PMU(pmu_id_read)(&pmu);
    printf("pmugen: pmu_id %08lx%08lx", (unsigned long)(id >> 32), (unsigned long)id);
#ifdef MONITOR_BASE
    MONITOR(t) monitor = MONITOR(open)(MONITOR_BASE);
    printf(" monitor_id %08lx", (unsigned long)MONITOR(id_read)(&monitor));
#endif
    printf("\n");
    measure(&pmu, 4);
    measure(&pmu, 8);
    printf("pmugen: done\n");
#ifdef CSR_SIM_FINISH_BASE
    /* litex_sim's SimFinish ends the simulation. */
    sim_finish_finish_write(1);
#endif
    return 0;
}
