/* kernel.c: the tiny kernel of kernel.h at work (docs/soc.md §3.2). System calls
 * program and read the PMU; timer interrupts tick while a workload runs; ring 3 (code
 * outside the IRQ handler) reads a counter, which USER_ACCESS allows, and tries to write
 * PERF_EVTSEL, which the PMU refuses: the SoC counts the ERR answer in FAULTS and the
 * register keeps its value. Prints `name=value` lines; exits 0 when every check holds. */
#include "kernel.h"

#define TIMER_PERIOD 2000 /* cycles between ticks: several ticks during the workload */

int main(void)
{
    bool ok = true;
    pmu_t pmu = kernel_pmu(); /* the handle; from ring 3 only USER_ACCESS's reads work */

    /* Window 1: the workload with timer ticks, counted per ring. */
    sys_pmu_program(0, EV(INSTRET), EVTSEL(USR));
    sys_pmu_program(1, EV(INSTRET), EVTSEL(OS));
    sys_pmu_program(2, EV(LOAD), EVTSEL(USR) | EVTSEL(OS));
    sys_pmu_program(3, EV(STORE), EVTSEL(USR));
    sys_timer(TIMER_PERIOD);
    uint32_t instret_before = soc_rdinstret();
    sys_pmu_start(0xF);
    ok &= check("workload_sorted", workload(8));
    sys_pmu_stop(0xF);
    uint32_t instret_after = soc_rdinstret();
    sys_timer(0);
    uint32_t user = (uint32_t)sys_pmu_read(0), kernel_instret = (uint32_t)sys_pmu_read(1);
    put_count(1, "INSTRET.user", user);
    put_count(1, "INSTRET.kernel", kernel_instret);
    put_count(1, "LOAD.all", (uint32_t)sys_pmu_read(2));
    put_count(1, "STORE.user", (uint32_t)sys_pmu_read(3));
    put_value("rdinstret", instret_after - instret_before);

    /* Ring 3 reads counter 0 itself (USER_ACCESS.RDPMC is 1 after reset): two bus reads
     * (+0, +4), both answered, no fault; the value is the one the kernel reports. */
    soc_clear_faults();
    uint32_t direct = (uint32_t)SOC_PMU(perf_cntr_read)(&pmu, 0);
    uint32_t read_faults = soc_faults();
    put_value("ring3.read", direct);
    put_value("ring3.read_faults", read_faults);
    ok &= check("ring3_read_allowed", read_faults == 0 && direct == user);

    /* Ring 3 writes PERF_EVTSEL[0] (ring 0 only): one bus write, answered ERR. */
    uint32_t evtsel_before = sys_pmu_evtsel(0);
    soc_clear_faults();
    SOC_PMU(perf_evtsel_write)(&pmu, 0, EV(STORE) | EVTSEL(OS) | EVTSEL(EN));
    uint32_t write_faults = soc_faults();
    uint32_t evtsel_after = sys_pmu_evtsel(0);
    put_value("ring3.write_faults", write_faults);
    put_value("ring3.evtsel_before", evtsel_before);
    put_value("ring3.evtsel_after", evtsel_after);
    ok &= check("ring3_write_refused", write_faults == 1 && evtsel_after == evtsel_before);

    /* The kernel withdraws RDPMC: the same read is now refused, both halves, and reads 0. */
    sys_pmu_user_access(SOC_PMU_C(USER_ACCESS_RDTSC) | SOC_PMU_C(USER_ACCESS_SPFLT));
    soc_clear_faults();
    uint32_t locked = (uint32_t)SOC_PMU(perf_cntr_read)(&pmu, 0);
    uint32_t locked_faults = soc_faults();
    sys_pmu_user_access(SOC_PMU_C(USER_ACCESS_RDTSC) | SOC_PMU_C(USER_ACCESS_RDPMC) |
                        SOC_PMU_C(USER_ACCESS_SPFLT));
    put_value("ring3.locked_read", locked);
    put_value("ring3.locked_faults", locked_faults);
    ok &= check("ring3_read_locked", locked == 0 && locked_faults == 2);

    /* The kernel's own statistics; `syscalls` last, so it counts every ECALL of the run. */
    uint32_t ticks = sys_stats(KSTAT_TICKS);
    put_value("ticks", ticks);
    ok &= check("ticked", ticks >= 3);
    put_value("syscalls", sys_stats(KSTAT_SYSCALLS));
    return ok ? 0 : 1;
}
