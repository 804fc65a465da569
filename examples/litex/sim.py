#!/usr/bin/env python3
"""LiteX's simulated SoC (litex_sim) with PicoRV32, pmugen's PMU on the CPU's RVFI
retirement port and the event-order monitor, running firmware/main.c built with
LiteX's software flow and booted by its BIOS (docs/litex.md §3).

    pmugen generate pmu --threads 1 --counters 4 --rvfi --core picorv32 \\
        --bus wishbone --bus-width 32 --litex --out target/litex/rtl
    pmugen generate monitor --events 2 --order-width 2 --rvfi --core picorv32 --rvfi-events CALL,RETURN \\
        --bus wishbone --litex --out target/litex/rtl
    target/venv/bin/python examples/litex/sim.py --rtl target/litex/rtl --output-dir target/litex/build

Three steps: LiteX builds the SoC's software (BIOS, libraries, headers) without the
gateware; make builds the firmware against them; LiteX builds the SoC again with the
firmware in its main RAM, which the BIOS boots, and runs it in Verilator until the
firmware ends the simulation.
"""
import argparse
import os
import subprocess
import sys

from litex.build.sim.config import SimConfig
from litex.soc.integration.builder import Builder
from litex.soc.integration.soc_core import get_mem_data
from litex.tools.litex_sim import SimSoC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from designs import add_designs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MAIN_RAM = 0x4000_0000
MAIN_RAM_SIZE = 0x1_0000


def soc(rtl, firmware=None):
    """The SoC: litex_sim's, with the PMU and the monitor; `firmware` (a binary) in main RAM."""
    kwargs = dict(
        cpu_type="picorv32",
        uart_name="sim",
        integrated_rom_size=0x1_0000,
        integrated_main_ram_size=MAIN_RAM_SIZE,
        sim_debug=True,
    )
    if firmware:
        kwargs["integrated_main_ram_init"] = get_mem_data(firmware, data_width=32, endianness="little")
    soc = SimSoC(**kwargs)
    if firmware:
        # The BIOS boots what is in main RAM.
        soc.add_constant("ROM_BOOT_ADDRESS", MAIN_RAM)
    add_designs(soc, rtl)
    return soc


def build(soc, output_dir, run):
    """LiteX's Builder: the software, and with `run` the Verilator model, run until the end."""
    config = SimConfig()
    config.add_clocker("sys_clk", freq_hz=int(1e6))
    config.add_module("serial2console", "serial")
    builder = Builder(soc, output_dir=output_dir, compile_gateware=run)
    builder.build(sim_config=config, interactive=False, run=run)
    return builder


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rtl", required=True, help="the directory `pmugen generate --litex` wrote")
    parser.add_argument("--output-dir", required=True, help="LiteX's build directory")
    args = parser.parse_args()
    rtl, output_dir = os.path.abspath(args.rtl), os.path.abspath(args.output_dir)
    # LiteX's makefiles run `python3 -m litex...`: this interpreter's.
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]

    builder = build(soc(rtl), output_dir, run=False)
    firmware_dir = os.path.join(output_dir, "firmware")
    os.makedirs(firmware_dir, exist_ok=True)
    makefile = os.path.join(HERE, "firmware", "Makefile")
    subprocess.run(
        ["make", "-s", "-f", makefile, "BUILD_DIR=" + builder.output_dir, "RTL=" + rtl],
        cwd=firmware_dir,
        check=True,
    )
    build(soc(rtl, os.path.join(firmware_dir, "firmware.bin")), output_dir, run=True)


if __name__ == "__main__":
    main()
