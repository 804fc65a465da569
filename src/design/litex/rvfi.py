

# The top's RVFI inputs: (port, width).
RVFI = [
@RVFI_PORTS@
]

# The width of each of those ports on PicoRV32 (one retirement per cycle, XLEN 32).
PICORV32 = {
    "rvfi_valid": 1,
    "rvfi_insn": 32,
    "rvfi_trap": 1,
    "rvfi_halt": 1,
    "rvfi_intr": 1,
    "rvfi_mode": 2,
    "rvfi_ixl": 2,
    "rvfi_pc_rdata": 32,
    "rvfi_pc_wdata": 32,
    "rvfi_mem_addr": 32,
    "rvfi_mem_rmask": 4,
    "rvfi_mem_wmask": 4,
}


def picorv32_rvfi(soc):
    """Make LiteX's PicoRV32 CPU of `soc` export its RVFI signals; returns them as a dict
    keyed by port name, for add_to_soc(..., **picorv32_rvfi(soc)). Calling it again
    returns the same signals (for a second design on the same CPU)."""
    cpu = getattr(soc, "cpu", None)
    if getattr(cpu, "name", None) != "picorv32":
        raise ValueError("picorv32_rvfi: the SoC's CPU is %s, not picorv32" % getattr(cpu, "name", "none"))
    for name, width in RVFI:
        if PICORV32.get(name) != width:
            raise ValueError(
                "picorv32_rvfi: %s takes %s as %d bits, PicoRV32 gives %s bits: generate the design for one "
                "hart of XLEN 32 (--threads 1 --xlen 32) or connect your core's RVFI with add_to_soc"
                % (TOP, name, width, PICORV32.get(name, "no"))
            )
    signals = getattr(cpu, "pmugen_rvfi", None)
    if signals is None:
        signals = {name: Signal(width, name=name) for name, width in PICORV32.items()}
        cpu.cpu_params.update({"o_" + name: signal for name, signal in signals.items()})
        # PicoRV32 has its RVFI port only with RISCV_FORMAL defined: a one-line source
        # read before picorv32.v.
        define = os.path.join(os.path.dirname(os.path.abspath(__file__)), TOP + "_riscv_formal.vh")
        sources = soc.platform.sources
        first = next((i for i, source in enumerate(sources) if os.path.basename(source[0]) == "picorv32.v"), None)
        if first is None:
            raise ValueError("picorv32_rvfi: picorv32.v is not among the platform's sources")
        sources.insert(first, (define, "verilog", "work"))
        cpu.pmugen_rvfi = signals
    return {name: signals[name] for name, _ in RVFI}
