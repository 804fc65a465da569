"""cocotb tests of the event-order monitor behind its AXI4-Lite or Wishbone wrapper
(`pmugen generate monitor --bus axi4lite|wishbone`), driven with the bus packages' own
masters: the worked example of docs/monitor.md §9 through the bus, and the wrapper's
refusals (unlisted address, write to a read-only register, misaligned address, partial
strobes), each answered SLVERR/ERR with nothing changed.

Register a is at byte address 4*a (32-bit data, docs/monitor.md §5 for the map).
"""

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge

from bus_helpers import TIMEOUT_US, expect_error, expect_ok, start

# Word addresses (docs/monitor.md §5); the bus address is 4 * these.
ID, CTRL, CMD, STATUS, COUNT, EVENTS, ORDER, BEFORE = 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x10, 0x40
CTRL_ENABLE = 0x1
CMD_CLEAR_RECORD, CMD_OPEN_WINDOW = 0x1, 0x4
STATUS_WINDOW, STATUS_MATCHED = 0x1, 0x2


def byte(word):
    return 4 * word


async def setup(dut):
    """Reset with every event, start and stop line low; returns (bus, N, W) from ID."""
    bus = await start(dut, {"events": 0, "start": 0, "stop": 0})
    ident = await expect_ok(bus.read(byte(ID)), "read ID")
    assert ident >> 16 == 0x4F4D, f"ID = {ident:#010x}: magic is not 0x4F4D"
    n, w = ident & 0xFF, (ident >> 8) & 0xFF
    assert len(dut.events) == n, f"ID says N = {n}, the events port has {len(dut.events)} bits"
    return bus, n, w


async def occur(dut, e):
    """One occurrence of event e (docs/monitor.md §3.1): its line high for one cycle,
    then low for one cycle. Inputs change at the falling edge, away from the sampling edge."""
    await FallingEdge(dut.clock)
    dut.events.value = 1 << e
    await FallingEdge(dut.clock)
    dut.events.value = 0
    await FallingEdge(dut.clock)


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_identification(dut):
    """ID reads 0x4F4D_0000 | W << 8 | N. The monitor ignores AxPROT: reads and writes
    act the same with AxPROT[0] 0 or 1."""
    bus, n, w = await setup(dut)
    assert (n, w) == (8, 3), f"this bench expects N = 8, W = 3; ID says N = {n}, W = {w}"
    for priv, order in [(False, 3), (True, 5)]:
        assert await expect_ok(bus.read(byte(ID), priv=priv), f"read ID, priv {priv}") == 0x4F4D0308
        await expect_ok(bus.write(byte(ORDER), order, priv=priv), f"write ORDER[0], priv {priv}")
        assert await expect_ok(bus.read(byte(ORDER), priv=not priv), f"read ORDER[0], priv {not priv}") == order


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_worked_example(dut):
    """docs/monitor.md §9: order E3 < E1 < E7, CTRL = 0x1, window open; E1 E3 E2 E1 E7
    set the documented BEFORE rows and EVENTS, and COUNT becomes 1. After
    CMD.CLEAR_RECORD the same sequence matches again: COUNT = 2 (the window stays
    open and COUNT accumulates)."""
    bus, _, _ = await setup(dut)
    # ORDER[2] = 1, ORDER[0] = 2, ORDER[6] = 3: the patent's E3 < E1 < E7 (Ek is events[k-1]).
    for e, order in [(2, 1), (0, 2), (6, 3)]:
        await expect_ok(bus.write(byte(ORDER + e), order), f"write ORDER[{e}]")
    await expect_ok(bus.write(byte(CTRL), CTRL_ENABLE), "write CTRL")  # ENABLE, no re-arm: the record stays readable
    await expect_ok(bus.write(byte(CMD), CMD_OPEN_WINDOW), "write CMD.OPEN_WINDOW")
    assert await expect_ok(bus.read(byte(STATUS)), "read STATUS") == STATUS_WINDOW
    assert dut.window.value == 1

    sequence = [0, 2, 1, 0, 6]  # E1, E3, E2, E1, E7
    for e in sequence:
        await occur(dut, e)
    # The worked example's table, last row of each register.
    expected = {BEFORE + 2: 0b0000001, BEFORE + 1: 0b0000101, BEFORE + 0: 0b0000110, BEFORE + 6: 0b0000111,
                EVENTS: 0b1000111, COUNT: 1, STATUS: STATUS_WINDOW | STATUS_MATCHED}
    for word, value in expected.items():
        got = await expect_ok(bus.read(byte(word)), f"read {word:#04x}")
        assert got == value, f"register {word:#04x} = {got:#x}, docs/monitor.md §9 says {value:#x}"

    await expect_ok(bus.write(byte(CMD), CMD_CLEAR_RECORD), "write CMD.CLEAR_RECORD")
    assert await expect_ok(bus.read(byte(EVENTS)), "read EVENTS") == 0
    for e in sequence:
        await occur(dut, e)
    assert await expect_ok(bus.read(byte(COUNT)), "read COUNT") == 2


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_unlisted_address_and_read_only_register(dut):
    """Unlisted addresses (0x06, ORDER[N], BEFORE[N], 0xFF) answer SLVERR/ERR to reads
    (data 0) and writes; a write to a read-only register (ID, STATUS, COUNT, EVENTS,
    BEFORE) answers SLVERR/ERR and changes nothing."""
    bus, n, _ = await setup(dut)
    for word in (0x06, 0x0F, ORDER + n, BEFORE + n, 0xFF):
        await expect_error(bus.read(byte(word)), f"read of unlisted {word:#04x}")
        await expect_error(bus.write(byte(word), 0x1), f"write of unlisted {word:#04x}")

    # A count to protect: the worked example's order, re-arming, one E3 E1 E7.
    for e, order in [(2, 1), (0, 2), (6, 3)]:
        await expect_ok(bus.write(byte(ORDER + e), order), f"write ORDER[{e}]")
    await expect_ok(bus.write(byte(CTRL), 0x3), "write CTRL")
    await expect_ok(bus.write(byte(CMD), CMD_OPEN_WINDOW), "write CMD")
    for e in (2, 0, 6):
        await occur(dut, e)
    assert await expect_ok(bus.read(byte(COUNT)), "read COUNT") == 1
    for word in (ID, STATUS, COUNT, EVENTS, BEFORE):
        await expect_error(bus.write(byte(word), 0xFFFF_FFFF), f"write of read-only {word:#04x}")
    assert await expect_ok(bus.read(byte(COUNT)), "read COUNT") == 1
    assert await expect_ok(bus.read(byte(ID)), "read ID") == 0x4F4D0308
    assert await expect_ok(bus.read(byte(STATUS)), "read STATUS") & STATUS_WINDOW


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_misaligned_address(dut):
    """A byte address with [1:0] != 0 answers SLVERR/ERR: a read returns 0 (even of a
    register holding a value), a write with all strobes set writes nothing."""
    bus, _, _ = await setup(dut)
    await expect_ok(bus.write(byte(ORDER), 5), "write ORDER[0]")
    for offset in (1, 2, 3):
        await expect_error(bus.read_misaligned(byte(ORDER) + offset), f"read at {byte(ORDER) + offset:#x}")
        await expect_error(bus.read_misaligned(byte(ID) + offset), f"read at {byte(ID) + offset:#x}")
        await expect_error(bus.write_strobes(byte(ORDER) + offset, 2, bus.full_strobes),
                           f"write at {byte(ORDER) + offset:#x}")
    assert await expect_ok(bus.read(byte(ORDER)), "read ORDER[0]") == 5
    assert await expect_ok(bus.read(byte(ORDER + 1)), "read ORDER[1]") == 0


@cocotb.test(timeout_time=TIMEOUT_US, timeout_unit="us")
async def test_partial_strobes(dut):
    """A write whose strobes (WSTRB / SEL) are not all ones answers SLVERR/ERR and
    writes nothing: ORDER[0] keeps its value, a partial CMD write does not open the
    window. Reads ignore strobes (Wishbone SEL)."""
    bus, _, _ = await setup(dut)
    await expect_ok(bus.write(byte(ORDER), 5), "write ORDER[0]")
    for strobes in (0x1, 0x3, 0x7, 0xE, 0x0):
        await expect_error(bus.write_strobes(byte(ORDER), 3, strobes), f"write ORDER[0], strobes {strobes:#x}")
        assert await expect_ok(bus.read(byte(ORDER)), "read ORDER[0]") == 5
    await expect_error(bus.write_strobes(byte(CMD), CMD_OPEN_WINDOW, 0x1), "write CMD, strobes 0x1")
    await ClockCycles(dut.clock, 2)
    assert dut.window.value == 0, "a refused CMD write opened the window"
    assert await expect_ok(bus.read(byte(STATUS)), "read STATUS") & STATUS_WINDOW == 0
    if hasattr(bus, "read_sel"):  # Wishbone: a read with partial SEL returns the whole register
        for sel in (0x1, 0x0):
            assert await expect_ok(bus.read_sel(byte(ORDER), sel), f"read ORDER[0], SEL {sel:#x}") == 5
    # The same write with every strobe set acts.
    await expect_ok(bus.write_strobes(byte(CMD), CMD_OPEN_WINDOW, bus.full_strobes), "write CMD")
    assert await expect_ok(bus.read(byte(STATUS)), "read STATUS") & STATUS_WINDOW
