/* order.c: seed 000's event-order monitor on a real CPU (docs/soc.md §3.5). The monitor
 * watches the eight RVFI events INSTRET, LOAD, STORE, BRANCH, BRANCH_TAKEN, JUMP, CALL,
 * RETURN (E1..E8). Its order register asks for a LOAD, then a taken branch, then a return
 * (E2 < E5 < E8), re-armed after every match; the workload runs with the window open and
 * the program reads COUNT. (No STORE in the order: the stores that open and close the
 * window cannot take part in a match.) The monitor has no privilege: ring 3 drives it directly.
 * Then the match interrupt: `matched` is PicoRV32's IRQ 4, and the kernel takes it once
 * (kernel.h stops the recording in its handler), noting where the program was. */
#include "kernel.h"

typedef SOC_MONITOR(t) monitor_t;

/* The monitor's event lines, in the SoC's order (E1 is events[0]). */
enum { E_INSTRET, E_LOAD, E_STORE, E_BRANCH, E_BRANCH_TAKEN, E_JUMP, E_CALL, E_RETURN };

/* Opening and closing the window are one CMD store each, the first store after the entry
 * of a function of their own, so that the tests find the window in the retirement log. */
__attribute__((noinline, noclone)) static void monitor_open(const monitor_t *monitor)
{
    SOC_MONITOR(cmd_write)(monitor,
                           SOC_MONITOR_C(CMD_CLEAR_RECORD) | SOC_MONITOR_C(CMD_CLEAR_COUNT) | SOC_MONITOR_C(CMD_OPEN_WINDOW));
}
__attribute__((noinline, noclone)) static uint32_t monitor_close(const monitor_t *monitor)
{
    SOC_MONITOR(cmd_write)(monitor, SOC_MONITOR_C(CMD_CLOSE_WINDOW));
    return SOC_MONITOR(count_read)(monitor);
}

int main(void)
{
    bool ok = true;
    monitor_t monitor = SOC_MONITOR(open)(SOC_MONITOR_BASE);
    ok &= check("probe", SOC_MONITOR(probe)(&monitor));
    uint32_t rearm = SOC_MONITOR_C(CTRL_ENABLE) | SOC_MONITOR_C(CTRL_AUTO_REARM);
    SOC_MONITOR(order_write)(&monitor, E_LOAD, 1);
    SOC_MONITOR(order_write)(&monitor, E_BRANCH_TAKEN, 2);
    SOC_MONITOR(order_write)(&monitor, E_RETURN, 3);

    /* The order as the monitor holds it, `order.E<k>=<value>` for the events in it. */
    for (unsigned e = 0; e < SOC_MONITOR_C(CFG_N); e++) {
        uint32_t order = SOC_MONITOR(order_read)(&monitor, e);
        if (order != 0) {
            soc_puts("order.E");
            soc_put_dec(e + 1);
            soc_putchar('=');
            soc_put_dec(order);
            soc_putchar('\n');
        }
    }

    /* Counting: IRQ 4 masked, so no handler runs inside the window. */
    uint32_t mask = soc_maskirq(0);
    soc_maskirq(mask | (1u << SOC_IRQ_MONITOR));
    SOC_MONITOR(ctrl_write)(&monitor, rearm);
    monitor_open(&monitor);
    ok &= workload(2);
    uint32_t count = monitor_close(&monitor);
    put_value("order.matches", count);
    ok &= check("matched", count > 0);

    /* The match interrupt: the first LOAD < BRANCH_TAKEN < RETURN after the start. */
    SOC_MONITOR(ctrl_write)(&monitor, 0);
    soc_maskirq(mask); /* a match pending from above (with recording off) comes in now */
    uint32_t before = sys_stats(KSTAT_MATCHES);
    SOC_MONITOR(start)(&monitor, rearm);
    ok &= workload(1);
    SOC_MONITOR(stop)(&monitor);
    uint32_t taken = sys_stats(KSTAT_MATCHES) - before;
    put_value("order.irqs", taken);
    ok &= check("one_shot_irq", taken == 1);
    uint32_t pc = sys_stats(KSTAT_MATCH_PC);
    soc_puts("order.irq_pc=0x");
    soc_put_hex(pc);
    soc_putchar('\n');
    return ok ? 0 : 1;
}
