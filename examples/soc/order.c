/* order.c: seed 000's event-order monitor on a real CPU (docs/soc.md §3.5). The monitor
 * watches the eight RVFI events INSTRET, LOAD, STORE, BRANCH, BRANCH_TAKEN, JUMP, CALL,
 * RETURN (E1..E8). Its order register asks for a LOAD, then a STORE, then a taken branch
 * (E2 < E3 < E5), re-armed after every match; the workload runs with the window open and
 * the program reads COUNT. The monitor has no privilege: ring 3 drives it directly.
 * Then the match interrupt: `matched` is PicoRV32's IRQ 4, and the kernel takes it once
 * (kernel.h stops the recording in its handler), noting where the program was. */
#include "kernel.h"

typedef event_order_monitor_n8_w3_rvfi_wb_t monitor_t;

/* The monitor's event lines, in the SoC's order (E1 is events[0]). */
enum { E_INSTRET, E_LOAD, E_STORE, E_BRANCH, E_BRANCH_TAKEN, E_JUMP, E_CALL, E_RETURN };

int main(void)
{
    bool ok = true;
    monitor_t monitor = event_order_monitor_n8_w3_rvfi_wb_open(SOC_MONITOR_BASE);
    ok &= check("probe", event_order_monitor_n8_w3_rvfi_wb_probe(&monitor));
    uint32_t rearm = EVENT_ORDER_MONITOR_N8_W3_RVFI_WB_CTRL_ENABLE | EVENT_ORDER_MONITOR_N8_W3_RVFI_WB_CTRL_AUTO_REARM;
    event_order_monitor_n8_w3_rvfi_wb_order_write(&monitor, E_LOAD, 1);
    event_order_monitor_n8_w3_rvfi_wb_order_write(&monitor, E_STORE, 2);
    event_order_monitor_n8_w3_rvfi_wb_order_write(&monitor, E_BRANCH_TAKEN, 3);

    /* Counting: IRQ 4 masked, so no handler runs inside the window. */
    uint32_t mask = soc_maskirq(0);
    soc_maskirq(mask | (1u << SOC_IRQ_MONITOR));
    event_order_monitor_n8_w3_rvfi_wb_start(&monitor, rearm);
    ok &= workload(2);
    uint32_t count = event_order_monitor_n8_w3_rvfi_wb_stop(&monitor);
    put_value("order.matches", count);
    ok &= check("matched", count > 0);

    /* The match interrupt: the first LOAD < STORE < BRANCH_TAKEN after the start. */
    event_order_monitor_n8_w3_rvfi_wb_ctrl_write(&monitor, 0);
    soc_maskirq(mask); /* a match pending from above (with recording off) comes in now */
    uint32_t before = sys_stats(KSTAT_MATCHES);
    event_order_monitor_n8_w3_rvfi_wb_start(&monitor, rearm);
    ok &= workload(1);
    event_order_monitor_n8_w3_rvfi_wb_stop(&monitor);
    uint32_t taken = sys_stats(KSTAT_MATCHES) - before;
    put_value("order.irqs", taken);
    ok &= check("one_shot_irq", taken == 1);
    uint32_t pc = sys_stats(KSTAT_MATCH_PC);
    soc_puts("order.irq_pc=0x");
    soc_put_hex(pc);
    soc_putchar('\n');
    return ok ? 0 : 1;
}
