"""A minimal cocotb test to copy: the event-order monitor with an AXI4-Lite slave
(`pmugen generate monitor --events 8 --order-width 3 --bus axi4lite --out DIR`),
driven with cocotbext.axi's AxiLiteMaster through the worked example of
docs/monitor.md §9 (order E3 < E1 < E7, events E1 E3 E2 E1 E7), run twice: COUNT = 2.

    target/venv/bin/python sim/cocotb/run.py DIR/event_order_monitor_n8_w3_axil.v \\
        event_order_monitor_n8_w3_axil example_monitor_axil
"""

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster


@cocotb.test(timeout_time=100, timeout_unit="us")  # a bus that never answers fails, not hangs
async def example_worked_example_counts_two(dut):
    cocotb.start_soon(Clock(dut.clock, 10, unit="ns").start())
    axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clock, dut.reset)
    dut.events.value, dut.start.value, dut.stop.value, dut.reset.value = 0, 0, 0, 1
    await ClockCycles(dut.clock, 2)
    dut.reset.value = 0
    for register, value in [(0x12, 1), (0x10, 2), (0x16, 3), (0x01, 0x1), (0x02, 0x4)]:
        await axil.write_dword(4 * register, value)  # ORDER: E3 < E1 < E7; CTRL = ENABLE; CMD = OPEN_WINDOW
    for _ in range(2):
        for e in [0, 2, 1, 0, 6]:  # E1 E3 E2 E1 E7, one-cycle pulses on events[k-1]
            await FallingEdge(dut.clock); dut.events.value = 1 << e
            await FallingEdge(dut.clock); dut.events.value = 0
        await axil.write_dword(4 * 0x02, 0x1)  # CMD = CLEAR_RECORD
    assert await axil.read_dword(4 * 0x04) == 2  # COUNT
