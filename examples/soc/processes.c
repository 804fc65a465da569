/* processes.c: what PID filtering and freezing do to a profile (docs/soc.md §4.5). Two
 * "processes" take turns on the CPU: the kernel switches the SoC's PID register (the
 * PMU's pid input) and PM_MARK (its pm_mark) on every turn, so a switch never falls
 * inside a block. Process 1 sums an array, process 2 fills one. The counters count
 * user-mode INSTRET, LOAD, STORE and BRANCH_TAKEN; timer ticks drain the trace sink and
 * print every word between `trace-begin` and `trace-end` lines (KTRACE_PRINT): the
 * capture of a board, which has no simulator to take the words as they move.
 *
 * Phase 1: TRACE_CTRL.PID_FILTER with TRACE_PID = 1: only the blocks that end while
 *          process 1 runs make records; process 2's blocks still restart the counters.
 * Phase 2: no filter; process 2 runs unmarked and FREEZE_CTRL.FREEZE_UNMARKED is set,
 *          so its blocks make records whose counts are all 0.
 *
 * It prints the order of the turns as `schedule=` (pids) and `marks=` (PM_MARK), one
 * digit per turn, so that the tests know which process ran between two switches.
 */
#include "kernel.h"

#define TICK 1500
#define WORDS 16
static uint32_t data[WORDS];

__attribute__((noinline)) static uint32_t process_sum(void)
{
    uint32_t sum = 0;
    for (unsigned i = 0; i < WORDS; i++)
        if (data[i] & 1)
            sum += data[i];
    return sum;
}

__attribute__((noinline)) static void process_fill(uint32_t seed)
{
    for (unsigned i = 0; i < WORDS; i++) {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        data[i] = seed & 0xFFFF;
    }
}

static char schedule[16], marks[16];
static unsigned turns;

/* One turn of process `pid`: switch to it in the kernel, run it. */
static uint32_t turn(uint32_t pid, bool marked, uint32_t round)
{
    sys_process(pid, marked);
    schedule[turns] = (char)('0' + pid);
    marks[turns++] = marked ? '1' : '0';
    if (pid == 1)
        return process_sum();
    process_fill(round);
    return 0;
}

int main(void)
{
    profile_counters_start(TICK);
    uint32_t sum = 0, dropped = 0;

    /* Phase 1: record process 1 only. */
    sys_trace(SOC_PMU_C(TRACE_CTRL_TRACE_EN) | SOC_PMU_C(TRACE_CTRL_PID_FILTER),
              1, KTRACE_DRAIN | KTRACE_PRINT);
    for (uint32_t round = 0; round < 3; round++) {
        sum += turn(2, true, round + 1);
        sum += turn(1, true, round);
    }
    dropped += sys_trace(0, 0, 0);

    /* Phase 2: record both; process 2 runs unmarked and is frozen. */
    sys_pmu_freeze(SOC_PMU_C(FREEZE_CTRL_FREEZE_UNMARKED));
    sys_trace(SOC_PMU_C(TRACE_CTRL_TRACE_EN), 0, KTRACE_DRAIN | KTRACE_PRINT);
    for (uint32_t round = 0; round < 2; round++) {
        sum += turn(1, true, round);
        sum += turn(2, false, round + 7);
    }
    dropped += sys_trace(0, 0, 0);
    sys_process(0, true);
    sys_pmu_freeze(0);
    sys_timer(0);
    sys_pmu_stop((1u << PMU_K) - 1);

    schedule[turns] = marks[turns] = '\0';
    soc_puts("schedule=");
    soc_puts(schedule);
    soc_puts("\nmarks=");
    soc_puts(marks);
    soc_putchar('\n');
    put_value("sum", sum);
    put_value("trace_words", sys_stats(KSTAT_TRACE_WORDS));
    put_value("trace_dropped", dropped);
    return dropped == 0 ? 0 : 1;
}
