"""Shared helpers of the cocotb bench: clock and reset, and one register access API over
either bus wrapper (AXI4-Lite or Wishbone B4 classic) of a generated pmugen design.

Every access goes through the bus packages' own standard masters: cocotbext.axi's
AxiLiteMaster and cocotbext.wishbone's WishboneMaster. The bus is recognised by the
top's ports (`s_axil_*` or `wb_*`), so one test module runs on both wrappers.
"""

from dataclasses import dataclass

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiProt, AxiResp
from cocotbext.axi.axil_channels import AxiLiteAWTransaction, AxiLiteWTransaction
from cocotbext.wishbone.driver import WBOp, WishboneMaster

CLOCK_NS = 10
# Cycles a Wishbone master waits for ACK or ERR before the test fails (the wrapper
# answers in the cycle after it takes the transaction).
ACK_TIMEOUT = 16
# Simulated time after which a test fails (each takes a few microseconds): a bus that
# never answers (AxiLiteMaster has no timeout of its own) fails the test, not hangs it.
TIMEOUT_US = 100


@dataclass
class Result:
    """One bus transaction's answer: `ok` is OKAY/ACK, False is SLVERR/ERR."""

    ok: bool
    data: int = 0


class RegisterBus:
    """Byte-addressed register accesses at ring 0 (`priv=True`) or ring 3 (`priv=False`).

    The monitor has no privilege: its wrapper ignores AxPROT and has no `wb_priv`,
    and `priv` then only sets AxPROT[0] on AXI4-Lite.
    """

    data_bytes = 4

    @property
    def full_strobes(self):
        return (1 << self.data_bytes) - 1

    async def read(self, address, priv=True) -> Result:
        raise NotImplementedError

    async def write(self, address, value, priv=True) -> Result:
        raise NotImplementedError

    async def write_strobes(self, address, value, strobes, priv=True) -> Result:
        """A write of one bus word with byte strobes `strobes` (AXI WSTRB / Wishbone SEL)."""
        raise NotImplementedError

    async def read_misaligned(self, address, priv=True) -> Result:
        """A read whose address has non-zero byte-offset bits."""
        raise NotImplementedError


class AxiLitePort(RegisterBus):
    def __init__(self, dut):
        # The wrapper's ports are s_axil_*; clock and reset are the design's own.
        self.master = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clock, dut.reset)
        self.data_bytes = len(dut.s_axil_wdata) // 8

    @staticmethod
    def prot(priv):
        # AxPROT[0] is the privilege. cocotbext.axi's default prot is NONSECURE (0b010),
        # whose bit 0 is 0: without an explicit prot every access is a ring-3 access.
        return AxiProt.PRIVILEGED if priv else AxiProt.NONSECURE

    async def read(self, address, priv=True):
        assert address % self.data_bytes == 0, "use read_misaligned"
        answer = await self.master.read(address, self.data_bytes, prot=self.prot(priv))
        return Result(answer.resp == AxiResp.OKAY, int.from_bytes(answer.data, "little"))

    async def write(self, address, value, priv=True):
        assert address % self.data_bytes == 0, "use write_strobes"
        data = value.to_bytes(self.data_bytes, "little")
        answer = await self.master.write(address, data, prot=self.prot(priv))
        return Result(answer.resp == AxiResp.OKAY)

    async def write_strobes(self, address, value, strobes, priv=True):
        # AxiLiteMaster.write derives WSTRB from the address and length, and at a
        # misaligned address it also clears the strobes below the offset. To test the
        # address rule and the strobe rule apart, this sends one AW and one W beat
        # exactly as given, on the same master's own channel drivers.
        write = self.master.write_if
        await write.aw_channel.send(AxiLiteAWTransaction(awaddr=address, awprot=self.prot(priv)))
        await write.w_channel.send(AxiLiteWTransaction(wdata=value, wstrb=strobes))
        answer = await write.b_channel.recv()
        return Result(int(answer.bresp) == AxiResp.OKAY)

    async def read_misaligned(self, address, priv=True):
        # A read of the bytes from `address` to the end of its word is one AR beat
        # carrying the misaligned address; the master returns those bytes of RDATA.
        length = self.data_bytes - address % self.data_bytes
        answer = await self.master.read(address, length, prot=self.prot(priv))
        return Result(answer.resp == AxiResp.OKAY, int.from_bytes(answer.data, "little"))


class WishbonePort(RegisterBus):
    def __init__(self, dut):
        self.dut = dut
        self.data_bytes = len(dut.wb_dat_w) // 8
        signals = {
            "cyc": "wb_cyc", "stb": "wb_stb", "we": "wb_we", "adr": "wb_adr", "datwr": "wb_dat_w",
            "datrd": "wb_dat_r", "ack": "wb_ack", "err": "wb_err", "sel": "wb_sel",
        }
        self.master = WishboneMaster(dut, None, dut.clock, width=8 * self.data_bytes, timeout=20, signals_dict=signals)
        # The PMU's wrapper has wb_priv (1 = ring 0); the monitor's has none.
        self.priv = getattr(dut, "wb_priv", None)
        if self.priv is not None:
            self.priv.value = 1
        self.answers = []
        cocotb.start_soon(self._watch())

    async def _watch(self):
        # The bus's answers as the wrapper gives them: ACK or ERR and DAT_R, sampled
        # once the edge that raised them has settled (ReadOnly). WishboneMaster reads
        # them right at the rising edge, where Icarus may already show part of that
        # edge's updates (seen here: ERR raised, DAT_R not yet), so its WBRes.datrd
        # can be stale. Its ACK/ERR code is checked against this record, and exactly
        # one answer per transaction.
        while True:
            await RisingEdge(self.dut.clock)
            await ReadOnly()
            ack, err = self.dut.wb_ack.value, self.dut.wb_err.value
            if ack == 1 or err == 1:
                assert not (ack == 1 and err == 1), "wb_ack and wb_err are both 1"
                self.answers.append(Result(ack == 1, self.dut.wb_dat_r.value.to_unsigned()))

    async def _cycle(self, op, priv):
        if self.priv is not None:
            self.priv.value = 1 if priv else 0
        self.answers = []
        (reply,) = await self.master.send_cycle([op])
        # WBRes.ack: 1 = ACK, 2 = ERR, 3 = RTY.
        assert reply.ack in (1, 2), f"Wishbone reply {reply.ack} is neither ACK nor ERR"
        assert len(self.answers) == 1, f"one transaction, {len(self.answers)} answers: {self.answers}"
        (answer,) = self.answers
        assert answer.ok == (reply.ack == 1), f"WishboneMaster saw {reply.ack}, the bus {answer}"
        return Result(answer.ok, answer.data if op.dat is None else 0)

    async def read(self, address, priv=True):
        assert address % self.data_bytes == 0, "use read_misaligned"
        return await self._cycle(WBOp(adr=address, sel=self.full_strobes, acktimeout=ACK_TIMEOUT), priv)

    async def write(self, address, value, priv=True):
        assert address % self.data_bytes == 0, "use write_strobes"
        # WBOp's default sel is 0xF, four bytes: a 64-bit bus needs 0xFF.
        return await self._cycle(WBOp(adr=address, dat=value, sel=self.full_strobes, acktimeout=ACK_TIMEOUT), priv)

    async def write_strobes(self, address, value, strobes, priv=True):
        return await self._cycle(WBOp(adr=address, dat=value, sel=strobes, acktimeout=ACK_TIMEOUT), priv)

    async def read_misaligned(self, address, priv=True):
        return await self._cycle(WBOp(adr=address, sel=self.full_strobes, acktimeout=ACK_TIMEOUT), priv)

    async def read_sel(self, address, sel, priv=True):
        """A read with SEL `sel` (AXI4-Lite reads have no strobes)."""
        return await self._cycle(WBOp(adr=address, sel=sel, acktimeout=ACK_TIMEOUT), priv)


def bus_of(dut) -> RegisterBus:
    """The register bus of the wrapped top `dut`, chosen by its port names."""
    if hasattr(dut, "s_axil_awaddr"):
        return AxiLitePort(dut)
    if hasattr(dut, "wb_cyc"):
        return WishbonePort(dut)
    raise AssertionError(f"{dut._name} has neither s_axil_* nor wb_* ports: generate it with --bus")


# The inputs of each bus slave, which its master drives.
BUS_INPUTS = {
    "axi4lite": ["s_axil_awaddr", "s_axil_awprot", "s_axil_awvalid", "s_axil_wdata", "s_axil_wstrb",
                 "s_axil_wvalid", "s_axil_bready", "s_axil_araddr", "s_axil_arprot", "s_axil_arvalid",
                 "s_axil_rready"],
    "wishbone": ["wb_cyc", "wb_stb", "wb_we", "wb_adr", "wb_dat_w", "wb_sel", "wb_priv"],
}


async def start(dut, inputs) -> RegisterBus:
    """Tie `inputs` (port name -> value) and every bus input to 0, start the clock with
    the synchronous reset high, make the bus master once reset has acted, and release
    reset. Returns the bus, one edge after reset fell."""
    for name, value in inputs.items():
        getattr(dut, name).value = value
    for name in BUS_INPUTS["axi4lite"] + BUS_INPUTS["wishbone"]:
        if hasattr(dut, name):
            getattr(dut, name).value = 0
    dut.reset.value = 1
    cocotb.start_soon(Clock(dut.clock, CLOCK_NS, unit="ns", impl="gpi").start())
    # The masters are made once reset has acted at an edge, mid-cycle. Both set their
    # idle outputs with Immediate writes, which under Icarus 11 do not act like
    # ordinary writes on a top-level input: at time 0 the value reaches the port net
    # but not the logic behind it (WishboneMaster made at time 0: the slave sees X on
    # an unchanged WB_ADR, answers X and the master times out), and after time 0 the
    # line read back Z (AxiLiteMaster then fails sampling its own VALID). Hence the
    # ordinary writes of every bus input above. AxiLiteMaster runs its channels from
    # the moment it is made unless it sees reset rise afterwards, so the wrapper's
    # handshake outputs (no initial values) must be out of X first: reset before.
    await ClockCycles(dut.clock, 2)
    await FallingEdge(dut.clock)
    bus = bus_of(dut)
    await FallingEdge(dut.clock)
    dut.reset.value = 0
    await RisingEdge(dut.clock)
    return bus


async def expect_ok(access, what):
    """Await one access, assert OKAY/ACK, return its data."""
    result = await access
    assert result.ok, f"{what}: answered SLVERR/ERR, expected OKAY/ACK"
    return result.data


async def expect_error(access, what):
    """Await one access, assert SLVERR/ERR and (for reads) data 0."""
    result = await access
    assert not result.ok, f"{what}: answered OKAY/ACK, expected SLVERR/ERR"
    assert result.data == 0, f"{what}: refused, but read data is {result.data:#x}, expected 0"
