/* first.c: a C program that counts its own user-mode instructions and branches
 * (docs/soc.md §2.4, "Your first program"): the kernel of kernel.h programs and starts
 * three counters for ring 3, the workload runs, the counts are printed. */
#include "kernel.h"

/* noipa: without it gcc -Os computes work(10) at compile time and nothing is left to count. */
__attribute__((noipa)) static uint32_t work(uint32_t n) { uint32_t sum = 0; while (n--) sum += n; return sum; }

int main(void) {
    sys_pmu_program(0, EV(INSTRET), EVTSEL(USR));
    sys_pmu_program(1, EV(BRANCH), EVTSEL(USR));
    sys_pmu_program(2, EV(BRANCH_TAKEN), EVTSEL(USR));
    sys_pmu_start(0x7);
    uint32_t sum = work(10);
    sys_pmu_stop(0x7);
    put_value("sum", sum);
    put_value("w1.INSTRET.user", (uint32_t)sys_pmu_read(0));
    put_value("w1.BRANCH.user", (uint32_t)sys_pmu_read(1));
    put_value("w1.BRANCH_TAKEN.user", (uint32_t)sys_pmu_read(2));
    return 0;
}
