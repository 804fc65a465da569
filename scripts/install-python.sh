#!/usr/bin/env bash
# The Python tools the tests and the main job drive (scripts/python-requirements.txt:
# FuseSoC, cocotb with its AXI and Wishbone bus masters, the SystemRDL compiler and
# PeakRDL, WaveDrom, PicoRV32's Verilog for `pmugen soc`, LiteX for examples/litex/, and
# the current yosys, nextpnr, SymbiYosys and boolector from the YoWASP packages), in a virtual environment under
# target/venv. Installs python3-venv with apt-get when Python cannot make a virtual
# environment. Does not reinstall when the environment already holds exactly these
# requirements. Then runs each YoWASP tool once: its first run compiles the WebAssembly
# into the YoWASP cache (~/.cache/YoWASP, or YOWASP_CACHE_DIR), a minute on 2 cores,
# which parallel test runs would otherwise each pay.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/venv
requirements=scripts/python-requirements.txt
stamp="$venv/.pmugen-requirements"
warm() {
    for tool in yosys nextpnr-ice40 nextpnr-ecp5 nextpnr-himbaechel-gowin boolector; do
        "$venv/bin/yowasp-$tool" --version >/dev/null
    done
}
if [ -x "$venv/bin/python" ] && cmp -s "$requirements" "$stamp"; then
    warm
    exit 0
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    echo "install-python: installing python3-venv" >&2
    scripts/apt-install.sh python3 python3-venv
fi
echo "install-python: $(grep -cv '^#' "$requirements") packages into $venv" >&2
rm -f "$stamp"
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
"$venv/bin/fusesoc" --version >/dev/null
"$venv/bin/python" -c 'import cocotb, cocotbext.axi, cocotbext.wishbone, systemrdl, peakrdl_html, peakrdl_ipxact, wavedrom, pythondata_cpu_picorv32, pythondata_cpu_serv, pythondata_cpu_ibex, litex, litedram, liteeth, litescope, litespi, litex_boards, pythondata_cpu_vexriscv'
cp "$requirements" "$stamp"
warm
