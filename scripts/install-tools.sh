#!/usr/bin/env bash
# Install the open-source FPGA tools pmugen drives (Debian packages):
# yosys, verilator, iverilog, nextpnr-ice40, fpga-icestorm (icepack), the make and
# g++ that `verilator --build` calls (the verilator package does not depend on them),
# and the RISC-V cross compiler that builds the generated C drivers for rv32i
# (riscv64-unknown-elf-gcc, with picolibc for its headers), and ccache, which Verilator
# builds use when it is there (each model then compiles Verilator's runtime once),
# and what LiteX's simulator (litex_sim, examples/litex/) builds with: meson, ninja,
# libevent and json-c. Does nothing when they are all present. Slurm, which only the
# tests need, is scripts/install-slurm.sh.
set -euo pipefail

need=()
for tool in yosys verilator iverilog nextpnr-ice40 icepack make g++ riscv64-unknown-elf-gcc ccache meson ninja; do
    command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
for header in event2/event.h json-c/json.h; do
    [ -e "/usr/include/$header" ] || need+=("$header")
done
if [ ${#need[@]} -eq 0 ]; then
    exit 0
fi
echo "install-tools: missing ${need[*]}; installing the Debian packages" >&2
"$(dirname "$0")/apt-install.sh" yosys verilator iverilog nextpnr-ice40 fpga-icestorm make g++ \
    gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf ccache meson ninja-build libevent-dev libjson-c-dev
for tool in yosys verilator iverilog nextpnr-ice40 icepack make g++ riscv64-unknown-elf-gcc ccache meson ninja; do
    command -v "$tool" >/dev/null 2>&1 || { echo "install-tools: $tool still missing after apt-get" >&2; exit 1; }
done
