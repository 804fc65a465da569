"""cocotb tests of the PMU behind its AXI4-Lite or Wishbone wrapper (`pmugen generate
pmu --bus axi4lite|wishbone`), driven with the bus packages' own masters: a counter
programmed through the bus counts a known number of instructions in ring 3 and in
ring 0 (the USR/OS filter against the `kernel` input), read back in ring 0 and, as
USER_ACCESS allows, in ring 3; and the refusals: denied accesses (docs/pmu.md §5.3,
§5.4), unlisted and misaligned addresses, partial strobes, each answered SLVERR/ERR
with read data 0 and nothing changed.

Register a of thread t is at byte address t*0x800 + 8*a (64-bit data). The privilege
is AxPROT[0] on AXI4-Lite and `wb_priv` on Wishbone: 1 = ring 0, 0 = ring 3.
The event input layout comes from the generated `<top>_inputs.json` (docs/pmu.md §2.2).
"""

import random

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge

from bus_helpers import TIMEOUT_US, expect_error, expect_ok
from pmu_bench import (EN, OS, PERF_CNTR, PERF_EVTSEL, PERF_GLOBAL_CTRL, PERF_GLOBAL_STATUS, PERF_SPFLT_CONTROL,
                         PMU_ID, RING0, RING3, SPFLT, TSC, USER_ACCESS, USR, at, field, inputs_layout, read_id,
                         reset_pmu)

INSTRUCTIONS_EXECUTED = 0x0016  # UMASK << 8 | EVENT


async def setup(dut):
    """Reset with every event-side input 0 and trace_ready 1; returns (bus, T, K)."""
    bus = await reset_pmu(dut)
    ident = await read_id(bus)
    assert ident >> 48 == 0x504D, f"PMU_ID = {ident:#018x}: magic is not 0x504D"
    threads, counters = ident & 0xFF, (ident >> 8) & 0xFF
    assert len(dut.kernel) == threads, f"PMU_ID says T = {threads}, kernel has {len(dut.kernel)} bits"
    return bus, threads, counters


async def drive(dut, cycles):
    """One cycle per (events, kernel) pair, changed at the falling edge; then the
    inputs return to 0 and two more edges pass, so the last events (counted one
    edge late, docs/pmu.md §4) are in the counters."""
    for events, kernel in cycles:
        await FallingEdge(dut.clock)
        dut.events.value = events
        dut.kernel.value = kernel
    await FallingEdge(dut.clock)
    dut.events.value = 0
    dut.kernel.value = 0
    await ClockCycles(dut.clock, 2)


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_identification(dut):
    """PMU_ID through every bank: the bank's thread in [41:40]; ring 3 may not read it."""
    bus, threads, _ = await setup(dut)
    for t in range(threads):
        ident = await expect_ok(bus.read(at(PMU_ID, t), RING0), f"ring-0 read of PMU_ID, bank {t}")
        assert (ident >> 40) & 0x3 == t, f"PMU_ID of bank {t} = {ident:#018x}"
        await expect_error(bus.read(at(PMU_ID, t), RING3), f"ring-3 read of PMU_ID, bank {t}")


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_counts_by_ring(dut):
    """Thread 0: counter 0 counts INSTRUCTIONS_EXECUTED in ring 3 (USR), counter 1 in
    ring 0 (OS); thread 1: counter 0 in every ring. Random instructions (0..3 per
    cycle and thread, the field's full range) in random rings on all threads; the
    counters hold exactly the sums of their thread's instructions in their rings.
    Ring 3 reads the same counts (USER_ACCESS.RDPMC is 1 after reset) and the TSC."""
    bus, threads, _ = await setup(dut)
    assert threads >= 2, "this test needs two threads"
    layout = inputs_layout(dut)
    fields = [field(layout, "INSTRUCTIONS_EXECUTED", t) for t in range(threads)]

    # Programming as docs/pmu.md §12.3: counters stopped, cleared, selected, started.
    for t, selects, enables in [(0, [USR | EN, OS | EN], 0x3), (1, [USR | OS | EN], 0x1)]:
        await expect_ok(bus.write(at(PERF_GLOBAL_CTRL, t), 0, RING0), f"stop bank {t}")
        for i, select in enumerate(selects):
            await expect_ok(bus.write(at(PERF_CNTR + i, t), 0, RING0), f"clear PERF_CNTR[{i}], bank {t}")
            await expect_ok(bus.write(at(PERF_EVTSEL + i, t), INSTRUCTIONS_EXECUTED | select, RING0),
                            f"write PERF_EVTSEL[{i}], bank {t}")
            readback = await expect_ok(bus.read(at(PERF_EVTSEL + i, t), RING0), f"read PERF_EVTSEL[{i}]")
            assert readback == INSTRUCTIONS_EXECUTED | select, f"PERF_EVTSEL[{i}] of bank {t} = {readback:#x}"
        await expect_ok(bus.write(at(PERF_GLOBAL_CTRL, t), enables, RING0), f"start bank {t}")

    seed = 20240601
    rng = random.Random(seed)
    cycles, user0, kernel0, all1 = [], 0, 0, 0
    for _ in range(40):
        counts = [rng.randrange(1 << width) for _, width in fields]
        kernel = rng.randrange(1 << threads)
        cycles.append((sum(c << lsb for c, (lsb, _) in zip(counts, fields)), kernel))
        if kernel & 1:
            kernel0 += counts[0]
        else:
            user0 += counts[0]
        all1 += counts[1]
    dut._log.info("seed %d: thread 0 ring 3 %d, ring 0 %d; thread 1 %d", seed, user0, kernel0, all1)
    assert user0 and kernel0, "the stimulus must count in both rings"
    await drive(dut, cycles)

    for (register, t), expected in [((PERF_CNTR, 0), user0), ((PERF_CNTR + 1, 0), kernel0), ((PERF_CNTR, 1), all1)]:
        got = await expect_ok(bus.read(at(register, t), RING0), f"ring-0 read of {register:#x}, bank {t}")
        assert got == expected, f"bank {t} counter {register - PERF_CNTR} = {got}, expected {expected}"
        got = await expect_ok(bus.read(at(register, t), RING3), f"ring-3 read (RDPMC) of {register:#x}, bank {t}")
        assert got == expected, f"ring 3 reads bank {t} counter {register - PERF_CNTR} = {got}, expected {expected}"
    first = await expect_ok(bus.read(at(TSC, 1), RING3), "ring-3 read (RDTSC) of TSC")
    second = await expect_ok(bus.read(at(TSC, 0), RING3), "ring-3 read (RDTSC) of TSC")
    assert 0 < first < second, f"TSC reads {first} then {second}"


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_denied_accesses(dut):
    """Every refusal answers SLVERR/ERR, reads 0 and changes nothing: ring-3 writes of
    PERF_EVTSEL and PERF_CNTR, ring-3 reads of PERF_EVTSEL, ring-3 reads of a counter
    and of the TSC once USER_ACCESS forbids them (per bank), ring-0 writes of
    read-only registers, the ring-0 read of SPFLT, unlisted addresses, misaligned
    addresses, partial strobes. Allowed ring-3 accesses still work (SPFLT in a bank
    whose USER_ACCESS.SPFLT is 1)."""
    bus, _, counters = await setup(dut)
    select = INSTRUCTIONS_EXECUTED | USR | EN
    await expect_ok(bus.write(at(PERF_EVTSEL), select, RING0), "ring-0 write of PERF_EVTSEL[0]")
    await expect_ok(bus.write(at(PERF_CNTR), 1234, RING0), "ring-0 write of PERF_CNTR[0]")  # PERF_GLOBAL_CTRL is 0: it stays

    async def unchanged():
        assert await expect_ok(bus.read(at(PERF_EVTSEL), RING0), "read PERF_EVTSEL[0]") == select
        assert await expect_ok(bus.read(at(PERF_CNTR), RING0), "read PERF_CNTR[0]") == 1234

    # Ring 3 may not program the PMU, nor read an event select.
    await expect_error(bus.write(at(PERF_EVTSEL), OS | EN | 0x2A, RING3), "ring-3 write of PERF_EVTSEL[0]")
    await expect_error(bus.write(at(PERF_CNTR), 0, RING3), "ring-3 write of PERF_CNTR[0]")
    await expect_error(bus.write(at(USER_ACCESS), 0, RING3), "ring-3 write of USER_ACCESS")
    await expect_error(bus.read(at(PERF_EVTSEL), RING3), "ring-3 read of PERF_EVTSEL[0]")
    await unchanged()
    assert await expect_ok(bus.read(at(PERF_CNTR), RING3), "ring-3 read (RDPMC) of PERF_CNTR[0]") == 1234

    # USER_ACCESS = 0 in bank 0 locks ring 3 out of RDPMC, RDTSC and SPFLT there only.
    await expect_ok(bus.write(at(USER_ACCESS), 0, RING0), "ring-0 write of USER_ACCESS")
    await expect_error(bus.read(at(PERF_CNTR), RING3), "ring-3 read of PERF_CNTR[0], RDPMC = 0")
    await expect_error(bus.read(at(TSC), RING3), "ring-3 read of TSC, RDTSC = 0")
    await expect_error(bus.write(at(SPFLT), 1, RING3), "ring-3 write of SPFLT, SPFLT = 0")
    assert await expect_ok(bus.read(at(PERF_SPFLT_CONTROL), RING0), "read PERF_SPFLT_CONTROL") == 0
    await unchanged()
    await expect_ok(bus.read(at(PERF_CNTR, 1), RING3), "ring-3 read of PERF_CNTR[0], bank 1")
    await expect_ok(bus.read(at(TSC, 1), RING3), "ring-3 read of TSC, bank 1")
    await expect_ok(bus.write(at(SPFLT, 1), 1, RING3), "ring-3 write of SPFLT, bank 1")
    assert await expect_ok(bus.read(at(PERF_SPFLT_CONTROL, 1), RING0), "read PERF_SPFLT_CONTROL, bank 1") == 1 << 63

    # Ring 0 is refused too where the map has no such access.
    await expect_error(bus.write(at(PERF_GLOBAL_STATUS), 0x3, RING0), "ring-0 write of PERF_GLOBAL_STATUS")
    await expect_error(bus.write(at(PMU_ID), 0, RING0), "ring-0 write of PMU_ID")
    await expect_error(bus.read(at(SPFLT), RING0), "ring-0 read of SPFLT")

    # Unlisted addresses: a gap, counter K, past the map.
    for register in (0x01, PERF_CNTR + counters, PERF_EVTSEL + counters, 0x43, 0xFF):
        await expect_error(bus.read(at(register), RING0), f"ring-0 read of unlisted {register:#x}")
        await expect_error(bus.write(at(register), 1, RING0), f"ring-0 write of unlisted {register:#x}")

    # Misaligned addresses: byte-offset bits [2:0] not 0.
    for offset in (1, 4, 7):
        await expect_error(bus.read_misaligned(at(PERF_CNTR) + offset, RING0), f"read at {at(PERF_CNTR) + offset:#x}")
        await expect_error(bus.write_strobes(at(PERF_CNTR) + offset, 99, bus.full_strobes, RING0),
                           f"write at {at(PERF_CNTR) + offset:#x}")

    # Partial strobes: refused even where the write would be allowed.
    for strobes in (0x0F, 0xF0, 0x7F, 0x01, 0x00):
        await expect_error(bus.write_strobes(at(PERF_CNTR), 99, strobes, RING0), f"write, strobes {strobes:#04x}")
        await expect_error(bus.write_strobes(at(PERF_EVTSEL), 0, strobes, RING0), f"write, strobes {strobes:#04x}")
    await unchanged()
