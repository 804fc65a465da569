#!/usr/bin/env python3
"""litex-boards' iCEBreaker target (iCE40UP5K) with PicoRV32, pmugen's PMU on the CPU's
RVFI retirement port and the event-order monitor (docs/litex.md §4). The UP5K's 5,280
logic cells hold LiteX's minimal PicoRV32 with a one-counter PMU and the monitor, at
20 MHz; the BIOS runs from the SPI flash and the firmware of firmware/ is loaded over
the UART:

    pmugen generate pmu --threads 1 --counters 1 --rvfi --core picorv32 \\
        --bus wishbone --bus-width 32 --litex --out target/litex/rtl
    pmugen generate monitor --events 2 --order-width 2 --rvfi --core picorv32 --rvfi-events CALL,RETURN \\
        --bus wishbone --litex --out target/litex/rtl
    target/venv/bin/python examples/litex/icebreaker.py --rtl target/litex/rtl \\
        --output-dir target/litex/icebreaker --build
    iceprog target/litex/icebreaker/gateware/icebreaker.bin
    iceprog -o 0x40000 target/litex/icebreaker/software/bios/bios.bin
    mkdir -p target/litex/icebreaker/firmware && cd target/litex/icebreaker/firmware && \\
        make -f ../../../../examples/litex/firmware/Makefile BUILD_DIR=.. RTL=../../rtl \\
        PMU_TOP=pmu_riscv_t1_k1_c40_rvfi_picorv32_wb32
    litex_term --kernel firmware.bin /dev/ttyUSB1

Without --build it elaborates the SoC only: its Verilog and headers, no software and no
bitstream.
"""
import argparse
import os
import sys

from litex.soc.integration.builder import Builder
from litex_boards.targets.icebreaker import BaseSoC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from designs import MONITOR, add_designs  # noqa: E402

PMU = "pmu_riscv_t1_k1_c40_rvfi_picorv32_wb32"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rtl", required=True, help="the directory `pmugen generate --litex` wrote")
    parser.add_argument("--output-dir", required=True, help="LiteX's build directory")
    parser.add_argument("--build", action="store_true", help="synthesize, place and route (yosys, nextpnr-ice40)")
    parser.add_argument("--pmu", default=PMU, help="the PMU's generated top (default %(default)s)")
    parser.add_argument("--no-monitor", action="store_true", help="the PMU alone")
    parser.add_argument("--sys-clk-freq", type=float, default=20e6, help="system clock in Hz (default 20e6)")
    parser.add_argument("--cpu-variant", default="minimal", help="PicoRV32 variant: minimal (default) or standard")
    args = parser.parse_args()
    # LiteX's makefiles run `python3 -m litex...`: this interpreter's.
    os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
    soc = BaseSoC(
        bios_flash_offset=0x40000,
        sys_clk_freq=args.sys_clk_freq,
        cpu_type="picorv32",
        cpu_variant=args.cpu_variant,
        with_led_chaser=False,
    )
    add_designs(soc, os.path.abspath(args.rtl), pmu=args.pmu, monitor=None if args.no_monitor else MONITOR)
    builder = Builder(
        soc, output_dir=os.path.abspath(args.output_dir), compile_software=args.build, compile_gateware=args.build
    )
    builder.build(build_name="icebreaker", run=args.build)


if __name__ == "__main__":
    main()
