"""cocotb tests of the PMU behind its 32-bit AXI4-Lite or Wishbone slave (`pmugen
generate pmu --bus axi4lite|wishbone --bus-width 32`, docs/bus.md §8), driven with the
bus packages' own masters (cocotbext-axi's AxiLiteMaster, cocotbext-wishbone's
WishboneMaster) as a 32-bit CPU would: every 64-bit register is two words, bits [31:0]
at t*0x800 + 8*a and bits [63:32] at +4; read low word first, write high word first.

- A counter counting every cycle (CPU_CLK_UNHALTED, EN + USR + OS, PERF_GLOBAL_CTRL),
  preloaded just below 2^32 with a +4/+0 write pair, read as +0 then +4 many times
  while it runs through the carry into bit 32: every value is whole (it grows with
  the cycles between reads, never by a carry's 2^32 or back).
- The read holding word across a carry: the +4 read after the +0 read answers the high
  word the +0 read saw, a second +4 read the live one.
- The held write word: +4 then +0 writes both halves at once; +0 alone writes {0,
  data}; the +0 write's ring decides; refusals between the halves keep the held word.
"""

import cocotb
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles

from bus_helpers import CLOCK_NS, TIMEOUT_US, expect_error, expect_ok
from pmu_bench import (EN, OS, PERF_CNTR, PERF_EVTSEL, PERF_GLOBAL_CTRL, RING0, RING3, SHADOW, USR, at,
                         event_code, field, inputs_layout, read_id, reset_pmu)

HIGH = 4  # the byte offset of a register's bits [63:32]
CARRY = 1 << 32
LOW_MASK = CARRY - 1
# Cycles between the preload and the carry: room for some reads before it.
BEFORE_CARRY = 300
SAMPLES = 80


async def setup(dut):
    """Reset; the bus (32-bit data) and the PMU's counter width from PMU_ID."""
    bus = await reset_pmu(dut)
    assert bus.data_bytes == 4, f"{dut._name} has {8 * bus.data_bytes}-bit data: generate it with --bus-width 32"
    ident = await read_id(bus)
    assert ident >> 48 == 0x504D, f"PMU_ID = {ident:#018x}: magic is not 0x504D"
    return bus, (ident >> 16) & 0xFF


async def write64(bus, address, value, priv=RING0):
    """A 64-bit register written as a 32-bit CPU does: high word (+4), then low (+0)."""
    await expect_ok(bus.write(address + HIGH, value >> 32, priv), f"write {address:#x}+4")
    return await bus.write(address, value & LOW_MASK, priv)


async def read64(bus, address, priv=RING0):
    """A 64-bit register read as a 32-bit CPU does: low word (+0), then high (+4)."""
    low = await expect_ok(bus.read(address, priv), f"read {address:#x}+0")
    high = await expect_ok(bus.read(address + HIGH, priv), f"read {address:#x}+4")
    return high << 32 | low


async def count_every_cycle(dut, bus, start_value):
    """Thread 0's counter 0 counts CPU_CLK_UNHALTED, held at 1, in every ring, from
    `start_value` (stopped, preloaded with a +4/+0 pair, selected, started)."""
    layout = inputs_layout(dut)
    lsb, _ = field(layout, "CPU_CLK_UNHALTED", 0)
    dut.events.value = 1 << lsb
    await expect_ok(bus.write(at(PERF_GLOBAL_CTRL), 0, RING0), "stop the counters")
    result = await write64(bus, at(PERF_CNTR), start_value)
    assert result.ok, "the +0 write of PERF_CNTR[0] was refused"
    select = event_code(layout, "CPU_CLK_UNHALTED") | USR | OS | EN
    await expect_ok(bus.write(at(PERF_EVTSEL), select, RING0), "write PERF_EVTSEL[0]")
    await expect_ok(bus.write(at(PERF_GLOBAL_CTRL), 1, RING0), "start counter 0")


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_a_running_counter_reads_whole_across_the_carry(dut):
    """Read the running 40-bit counter as +0 then +4, SAMPLES times, through its carry
    into bit 32: each value exceeds the one before by at most the cycles between the
    two reads, so no value is torn (a torn one is 2^32 off)."""
    bus, counter_width = await setup(dut)
    assert counter_width > 32, f"CW = {counter_width}: the counter has no high word"
    await count_every_cycle(dut, bus, CARRY - BEFORE_CARRY)
    values, times = [], []
    for _ in range(SAMPLES):
        values.append(await read64(bus, at(PERF_CNTR)))
        times.append(get_sim_time("ns"))
    for i in range(1, len(values)):
        cycles = (times[i] - times[i - 1]) // CLOCK_NS
        grown = values[i] - values[i - 1]
        assert 0 < grown <= cycles + 2, (f"read {i}: {values[i - 1]:#x} then {values[i]:#x} "
                                         f"({cycles} cycles apart): a torn value")
    below = [v for v in values if v < CARRY]
    above = [v for v in values if v >= CARRY]
    assert below and above, f"the reads did not straddle the carry: {values[0]:#x} .. {values[-1]:#x}"
    dut._log.info("%d whole values from %#x to %#x, the carry between %#x and %#x", len(values), values[0],
                  values[-1], below[-1], above[0])
    # Ring 3 reads it the same way (USER_ACCESS.RDPMC is 1 after reset).
    value = await read64(bus, at(PERF_CNTR), RING3)
    assert values[-1] < value < CARRY + CARRY // 2, f"ring-3 read {value:#x}"


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_the_high_word_is_the_one_the_low_read_saw(dut):
    """A +0 read just before the carry, the +4 read well after it: the +4 read answers
    the high word of the +0 read's value (0), and a second +4 read the live one (1)."""
    bus, _ = await setup(dut)
    await count_every_cycle(dut, bus, CARRY - 60)
    low = await expect_ok(bus.read(at(PERF_CNTR), RING0), "read +0")
    assert low > LOW_MASK - 60, f"+0 read {low:#x}, expected just below the carry"
    await ClockCycles(dut.clock, 200)
    assert await expect_ok(bus.read(at(PERF_CNTR) + HIGH, RING0), "read +4") == 0, "the held high word"
    assert await expect_ok(bus.read(at(PERF_CNTR) + HIGH, RING0), "read +4 again") == 1, "the live high word"
    # A +0 read of another register between the halves ends the hold.
    await expect_ok(bus.read(at(PERF_CNTR), RING0), "read +0")
    await expect_ok(bus.read(at(PERF_EVTSEL), RING0), "read PERF_EVTSEL[0] +0")
    assert await expect_ok(bus.read(at(PERF_CNTR) + HIGH, RING0), "read +4") == 1


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_writes_take_the_held_high_word(dut):
    """SHADOW[0] (CW bits, nothing changes it here): +4 then +0 writes the whole value;
    +0 alone writes {0, data}; +0 then +4 writes {0, data} and the +4 waits for the
    next +0; a ring-3 +4 is acknowledged and the ring-0 +0 performs it; a ring-3 +0 is
    denied and uses the held word up; refusals between the halves keep it."""
    bus, counter_width = await setup(dut)
    mask = (1 << counter_width) - 1
    shadow = at(SHADOW)

    async def expect_shadow(value, what):
        got = await read64(bus, shadow)
        assert got == value & mask, f"{what}: SHADOW[0] = {got:#x}, expected {value & mask:#x}"

    assert (await write64(bus, shadow, 0xAB_1234_5678)).ok
    await expect_shadow(0xAB_1234_5678, "+4 then +0")
    await expect_ok(bus.write(shadow, 0x9ABC_DEF0, RING0), "+0 alone")
    await expect_shadow(0x9ABC_DEF0, "+0 alone")
    await expect_ok(bus.write(shadow, 0x1111, RING0), "+0 first")
    await expect_ok(bus.write(shadow + HIGH, 0x22, RING0), "+4 second")
    await expect_shadow(0x1111, "+0 then +4")
    await expect_ok(bus.write(shadow, 0x3333, RING0), "the next +0")
    await expect_shadow(0x22_0000_3333, "the +4 held for the next +0")

    await expect_ok(bus.write(shadow + HIGH, 0x44, RING3), "ring-3 +4 (acknowledged)")
    await expect_ok(bus.write(shadow, 0x5555, RING0), "ring-0 +0")
    await expect_shadow(0x44_0000_5555, "ring-3 +4, ring-0 +0")
    await expect_ok(bus.write(shadow + HIGH, 0x66, RING0), "ring-0 +4")
    await expect_error(bus.write(shadow, 0x7777, RING3), "ring-3 +0 (denied)")
    await expect_shadow(0x44_0000_5555, "after the denied +0")
    await expect_ok(bus.write(shadow, 0x8888, RING0), "+0 after the denied one")
    await expect_shadow(0x8888, "the denied +0 used the held word up")

    await expect_ok(bus.write(shadow + HIGH, 0x99, RING0), "+4")
    await expect_error(bus.write_strobes(shadow, 0x1, 0x3, RING0), "+0 with partial strobes")
    await expect_error(bus.write_strobes(shadow + 1, 0x1, 0xF, RING0), "misaligned write")
    await expect_ok(bus.write(shadow, 0xAAAA, RING0), "+0")
    await expect_shadow(0x99_0000_AAAA, "refusals between the halves keep the held word")
