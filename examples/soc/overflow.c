/* overflow.c: counter overflow and pmi on a real CPU (docs/soc.md §3.4). Counter 0 counts
 * the loads of ring 3 and is preloaded PERIOD events below 2^40; every overflow raises
 * pmi (PicoRV32's IRQ 3) into the kernel, which counts it and re-arms the counter by
 * adding 2^40 - PERIOD to what it holds, so the loads since the overflow stay counted.
 * The workload is an assembly loop of exactly LOADS loads, so the expected number of
 * overflows is LOADS / PERIOD and the counter ends LOADS % PERIOD above its preload. */
#include "kernel.h"

#define PERIOD 100u /* loads between overflows */
#define LOADS 1234u /* loads of the workload */

/* `count` loads of `word`: a loop of three instructions (lw, addi, bnez) a round, and
 * nothing else between the two system calls reads memory. */
__attribute__((noipa)) static void loads(volatile const uint32_t *word, uint32_t count)
{
    __asm__ volatile("1: lw t0, 0(%0)\n"
                     "   addi %1, %1, -1\n"
                     "   bnez %1, 1b\n"
                     : "+r"(word), "+r"(count)
                     :
                     : "t0", "memory");
}

int main(void)
{
    static uint32_t word;
    sys_pmu_program(0, EV(LOAD), EVTSEL(USR));
    sys_pmu_overflow_every(0, PERIOD);
    sys_pmu_start(1u << 0);
    loads(&word, LOADS);
    sys_pmu_stop(1u << 0);

    /* The counter holds 2^40 - PERIOD + (loads since the last overflow). */
    uint64_t counter = sys_pmu_read(0);
    uint64_t above_preload = counter - (((uint64_t)1 << PMU_CW) - PERIOD);
    uint32_t overflows = sys_stats(KSTAT_OVERFLOWS);
    uint32_t expected = LOADS / PERIOD;
    put_value("period", PERIOD);
    put_value("overflows", overflows);
    put_value("expected_overflows", expected);
    put_value("remainder", (uint32_t)above_preload);
    put_value("expected_remainder", LOADS % PERIOD);
    /* Every load of the window, counted or carried by an overflow: the tests compare it
     * with the loads of ring 3 in the retirement log. */
    put_count(1, "LOAD.user.total", overflows * PERIOD + (uint32_t)above_preload);
    bool ok = check("no_overflow_lost", overflows == expected);
    ok &= check("no_load_lost", above_preload == LOADS % PERIOD);
    return ok ? 0 : 1;
}
