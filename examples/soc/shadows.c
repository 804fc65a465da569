/* shadows.c: seed 002's process-accurate counting on a real CPU (docs/soc.md §3.3). A
 * "process" (the workload, ring 3) makes system calls and is interrupted by timer ticks;
 * counter 0 counts INSTRET in both rings with SAVE_ON_ENTRY and RESTORE_ON_EXIT, so every
 * kernel entry saves the process's count into SHADOW[0] and every exit puts it back: the
 * kernel's instructions drop out. Counter 1 counts INSTRET in both rings without shadows
 * and includes them; counter 2 counts ring 3 only (USR), which the shadowed counter must
 * equal; counter 3 counts the kernel (OS), which the difference must equal. */
#include "kernel.h"

#define TIMER_PERIOD 1500 /* cycles between ticks */
#define ROUNDS 6          /* workload rounds, each followed by a system call */

int main(void)
{
    bool ok = true;
    for (unsigned i = 0; i < 2; i++)
        sys_pmu_program(i, EV(INSTRET), EVTSEL(USR) | EVTSEL(OS));
    sys_pmu_program(2, EV(INSTRET), EVTSEL(USR));
    sys_pmu_program(3, EV(INSTRET), EVTSEL(OS));
    sys_pmu_shadows(1u << 0);
    sys_timer(TIMER_PERIOD);
    uint32_t instret_before = soc_rdinstret();
    sys_pmu_start(0xF);
    for (uint32_t round = 0; round < ROUNDS; round++) {
        ok &= workload(1);
        syscall3(SYS_NULL, 0, 0, 0); /* a system call in the middle of the process */
    }
    sys_pmu_stop(0xF);
    uint32_t instret_after = soc_rdinstret();
    sys_timer(0);
    ok &= check("workload_sorted", ok);

    uint32_t process = (uint32_t)sys_pmu_read(0); /* SHADOW[0]: the count at this kernel entry */
    uint32_t both = (uint32_t)sys_pmu_read(1);
    uint32_t user = (uint32_t)sys_pmu_read(2);
    uint32_t kernel_instret = (uint32_t)sys_pmu_read(3);
    put_count(1, "INSTRET.user.process", process);
    put_count(1, "INSTRET.all.both_rings", both);
    put_count(1, "INSTRET.user.usr_only", user);
    put_count(1, "INSTRET.kernel.os_only", kernel_instret);
    put_count(1, "INSTRET.kernel.difference", both - process);
    put_value("rdinstret", instret_after - instret_before);
    put_value("ticks", sys_stats(KSTAT_TICKS));
    ok &= check("process_is_user", process == user);
    ok &= check("difference_is_kernel", both - process == kernel_instret);
    ok &= check("kernel_excluded", process < both);
    put_value("syscalls", sys_stats(KSTAT_SYSCALLS));
    return ok ? 0 : 1;
}
