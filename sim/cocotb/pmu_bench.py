"""What the PMU's cocotb tests share: register addresses, the event-input layout of the
generated `<top>_inputs.json`, and reset with the PMU's own inputs quiet.

Register a of thread t is at byte address t*0x800 + 8*a on every bus; behind a 32-bit
slave (`--bus-width 32`) its bits [31:0] are the word at that address and bits [63:32]
the word at +4 (docs/bus.md §8).
"""

import json
import os
from pathlib import Path

from bus_helpers import expect_ok, start

# Register addresses (docs/pmu.md §6.1).
PMU_ID, TSC, PERF_CNTR, PERF_EVTSEL = 0x00, 0x10, 0x20, 0x28
PERF_SPFLT_CONTROL, PERF_GLOBAL_STATUS, PERF_GLOBAL_CTRL = 0x2C, 0x2D, 0x2F
SHADOW = 0x30
USER_ACCESS, SPFLT = 0x3E, 0x3F
# PERF_EVTSEL fields.
USR, OS, EN = 1 << 16, 1 << 17, 1 << 22
RING0, RING3 = True, False
# The wrapped tops' suffixes (docs/bus.md), longest first.
BUS_SUFFIXES = ("_axil32", "_wb32", "_axil", "_wb")


def at(register, thread=0):
    """The byte address of `register` in thread `thread`'s bank."""
    return thread * 0x800 + 8 * register


def inputs_layout(dut):
    """The generated `<top>_inputs.json` next to the Verilog (the bare top's name: the
    wrapper keeps the bare design's event ports)."""
    verilog = Path(os.environ["PMUGEN_VERILOG"])
    bare = dut._name
    for suffix in BUS_SUFFIXES:
        bare = bare.removesuffix(suffix)
    for name in (f"{dut._name}_inputs.json", f"{bare}_inputs.json"):
        if (verilog.parent / name).is_file():
            return json.loads((verilog.parent / name).read_text())
    raise AssertionError(f"no {bare}_inputs.json next to {verilog}: pmugen generate pmu writes it (docs/pmu.md §2.2)")


def event_code(layout, event):
    """`event`'s PERF_EVTSEL bits [15:0] (UMASK << 8 | EVENT) from the layout."""
    (entry,) = [e for e in layout["events"] if e["name"] == event]
    return int(entry["umask"], 16) << 8 | int(entry["code"], 16)


def field(layout, event, thread):
    """(lsb, width) of `event`'s input field of `thread` in the `events` port."""
    (entry,) = [e for e in layout["events"] if e["name"] == event]
    assert entry["port"] == "events", f"{event} is not a thread-scope event"
    (bits,) = [b for b in entry["bits"] if b["thread"] == thread]
    return bits["lsb"], bits["msb"] - bits["lsb"] + 1


async def reset_pmu(dut):
    """Reset with every event-side input 0 and trace_ready 1; returns the bus."""
    return await start(dut, {"events": 0, "core_events": 0, "kernel": 0, "pm_mark": 0, "bb_end": 0,
                             "bb_addr": 0, "pid": 0, "trace_ready": 1})


async def read_id(bus, thread=0):
    """PMU_ID of `thread`'s bank, in ring 0, whole: one read on a 64-bit bus, +0 then
    +4 on a 32-bit one."""
    if bus.data_bytes == 8:
        return await expect_ok(bus.read(at(PMU_ID, thread), RING0), "ring-0 read of PMU_ID")
    low = await expect_ok(bus.read(at(PMU_ID, thread), RING0), "ring-0 read of PMU_ID +0")
    high = await expect_ok(bus.read(at(PMU_ID, thread) + 4, RING0), "ring-0 read of PMU_ID +4")
    return high << 32 | low
