@HEADER@
"""@TOP@ in a LiteX SoC (docs/litex.md).

    from @TOP@_litex import add_to_soc@RVFI_IMPORT@
    module = add_to_soc(soc, "@NAME@", 0x9000_0000@RVFI_CALL@)

Needs only LiteX and Migen: the Verilog is @TOP@.v beside this file.
"""
import os

from migen import Cat, ClockSignal, Constant, Instance, Module, ResetSignal, Signal
from litex.soc.interconnect import wishbone
from litex.soc.integration.soc import SoCRegion

TOP = "@TOP@"
VERILOG = os.path.join(os.path.dirname(os.path.abspath(__file__)), TOP + ".v")

# The slave's byte address bits (wb_adr) and the window they span.
ADDRESS_BITS = @ADDRESS_BITS@
WINDOW = 1 << ADDRESS_BITS

# (port, width, value when not connected) of every input besides clock, reset and the
# bus: unconnected inputs are 0, except wb_priv and pm_mark, all ones (privileged
# accesses, every thread marked).
INPUTS = [
@INPUTS@
]

# (port, width) of every output besides the bus: attributes of the module.
OUTPUTS = [
@OUTPUTS@
]


class Core(Module):
    """The generated top, its Wishbone slave on LiteX's word-addressed 32-bit bus."""

    def __init__(self, platform, inputs):
        names = [name for name, _, _ in INPUTS]
        unknown = sorted(set(inputs) - set(names))
        if unknown:
            raise ValueError(
                "%s has no input %s; its inputs are %s" % (TOP, ", ".join(unknown), ", ".join(names))
            )
        self.bus = wishbone.Interface(data_width=32)
        params = dict(
            i_clock=ClockSignal("sys"),
            i_reset=ResetSignal("sys"),
            i_wb_cyc=self.bus.cyc,
            i_wb_stb=self.bus.stb,
            i_wb_we=self.bus.we,
            # LiteX addresses 32-bit words, the slave bytes.
            i_wb_adr=Cat(Constant(0, 2), self.bus.adr)[:ADDRESS_BITS],
            i_wb_dat_w=self.bus.dat_w,
            o_wb_dat_r=self.bus.dat_r,
            i_wb_sel=self.bus.sel,
            o_wb_ack=self.bus.ack,
            o_wb_err=self.bus.err,
        )
        for name, width, default in INPUTS:
            params["i_" + name] = inputs.get(name, Constant(default, width))
        for name, width in OUTPUTS:
            signal = Signal(width, name=name)
            setattr(self, name, signal)
            params["o_" + name] = signal
        self.specials += Instance(TOP, **params)
        platform.add_source(VERILOG)


def add_to_soc(soc, name, origin, **inputs):
    """Add the design to `soc` as the Wishbone slave `name` at `origin`, a non-cached
    I/O region of WINDOW bytes (for PicoRV32, 0x9000_0000: LiteX's CSRs are at
    0x8200_0000). `inputs` connects inputs by port name (Migen signals or constants).
    Returns the module; its outputs are attributes named like the ports."""
    if origin % WINDOW:
        raise ValueError("%s: origin 0x%x is not a multiple of its window, 0x%x" % (TOP, origin, WINDOW))
    module = Core(soc.platform, inputs)
    soc.add_module(name=name, module=module)
    soc.bus.add_slave(name=name, slave=module.bus, region=SoCRegion(origin=origin, size=WINDOW, cached=False))
    return module
@RVFI@
