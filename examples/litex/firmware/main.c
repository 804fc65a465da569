/* main.c: a firmware that counts its own work with pmugen's PMU in a LiteX SoC
 * (docs/litex.md §3), built with LiteX's software flow and booted by its BIOS.
 *
 * PicoRV32 has no privilege modes: the PMU is generated with `--kernel handler`, so
 * the code outside interrupt handlers is user code (ring 3) and the handlers are the
 * kernel (ring 0). The bus input wb_priv is left unconnected (1): every bus access is
 * privileged, so main() programs the PMU itself. For two sizes of a workload it counts
 * user-mode INSTRET and every INSTRET and BRANCH_TAKEN, beside PicoRV32's own
 * instruction counter (rdinstret) over the same stretch, and prints them; the
 * differences between the two sizes are the workload's alone (the fixed cost of
 * starting and stopping cancels), so INSTRET's must equal rdinstret's.
 */
#include <stdint.h>
#include <stdio.h>

#include <generated/csr.h>
#include <generated/mem.h>
#include <irq.h>
#include <libbase/uart.h>

#include "event_order_monitor_n2_w2_rvfi_wb_driver.h"
#include "pmu_riscv_t1_k4_c40_rvfi_wb32_driver.h"

#define PMU(name) pmu_riscv_t1_k4_c40_rvfi_wb32_##name
#define PMU_EV(name) PMU_RISCV_T1_K4_C40_RVFI_WB32_EV_##name
#define PMU_FLAG(name) PMU_RISCV_T1_K4_C40_RVFI_WB32_PERF_EVTSEL_##name
#define MONITOR(name) event_order_monitor_n2_w2_rvfi_wb_##name

static uint32_t rdinstret(void)
{
    uint32_t count;
    __asm__ volatile("rdinstret %0" : "=r"(count));
    return count;
}

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

static void measure(PMU(t) *pmu, unsigned rounds)
{
    static const PMU(event_t) events[3] = {PMU_EV(INSTRET), PMU_EV(INSTRET), PMU_EV(BRANCH_TAKEN)};
    static const uint64_t rings[3] = {PMU_FLAG(USR), PMU_FLAG(USR) | PMU_FLAG(OS), PMU_FLAG(USR) | PMU_FLAG(OS)};
    for (unsigned i = 0; i < 3; i++) {
        PMU(perf_cntr_write)(pmu, i, 0);
        PMU(program)(pmu, i, events[i], rings[i]);
    }
    /* No interrupt inside the window: both counts see the same instructions. */
    irq_setie(0);
    uint32_t before = rdinstret();
    PMU(start)(pmu, 0x7);
    uint32_t checksum = workload(rounds);
    PMU(stop)(pmu, 0x7);
    uint32_t after = rdinstret();
    irq_setie(1);
    printf("pmugen: rounds %u checksum %08lx user_instret %lu instret %lu branch_taken %lu rdinstret %lu\n", rounds,
           (unsigned long)checksum, (unsigned long)PMU(perf_cntr_read)(pmu, 0), (unsigned long)PMU(perf_cntr_read)(pmu, 1),
           (unsigned long)PMU(perf_cntr_read)(pmu, 2), (unsigned long)(after - before));
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
