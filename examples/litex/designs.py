"""The part of examples/litex/ a LiteX user writes (docs/litex.md §1): pmugen's PMU on
PicoRV32's RVFI retirement port and the event-order monitor, each a Wishbone slave in a
non-cached I/O region. Shared by the simulation (sim.py) and the board (icebreaker.py).
"""
import importlib.util
import os
import sys

# The generated tops (docs/litex.md §3 gives the commands that write them).
PMU = "pmu_riscv_t1_k4_c40_rvfi_picorv32_wb32"
MONITOR = "event_order_monitor_n2_w2_rvfi_picorv32_e89_wb"

# LiteX's CSRs are at 0x8200_0000 on PicoRV32: the designs go above them.
PMU_ORIGIN = 0x9000_0000
MONITOR_ORIGIN = 0x9100_0000


def load(rtl, top):
    """The generated LiteX module of `top` in the directory `rtl`."""
    path = os.path.join(rtl, top + "_litex.py")
    if not os.path.exists(path):
        sys.exit("%s is missing: generate it with `pmugen generate ... --litex --out %s` (docs/litex.md §3)" % (path, rtl))
    spec = importlib.util.spec_from_file_location(top + "_litex", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def add_designs(soc, rtl, pmu=PMU, monitor=MONITOR):
    """Add the PMU `pmu` and the monitor `monitor` (tops generated into `rtl`) to `soc`,
    whose CPU is PicoRV32; the monitor is left out when `monitor` is None."""
    pmu = load(rtl, pmu)
    pmu.add_to_soc(soc, "pmu", PMU_ORIGIN, **pmu.picorv32_rvfi(soc))
    if monitor is not None:
        monitor = load(rtl, monitor)
        monitor.add_to_soc(soc, "monitor", MONITOR_ORIGIN, **monitor.picorv32_rvfi(soc))
