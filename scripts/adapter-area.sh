#!/usr/bin/env bash
# The RVFI adapter's iCE40 area alone (docs/soc.md §1.9): the adapter modules of a
# generated _rvfi top (default: the committed one-hart PMU), synthesized with
# synth_ice40 and packed by nextpnr-ice40 for the HX8K; prints the cells of each block
# and the adapter's logic cells.
set -euo pipefail
cd "$(dirname "$0")/.."
verilog="${1:-generated/pmu_riscv_t1_k4_c40_rvfi.v}"
top="$(basename "$verilog" .v)__adapter"
work=target/pmugen/adapter-area
mkdir -p "$work"
# The adapter's modules, in the order generate writes them (each ends at its endmodule).
awk -v top="$top" '/^module /{keep = index($2, top) == 1} keep' "$verilog" > "$work/adapter.v"
for module in $(grep -o "^module ${top}[a-z_0-9]*" "$work/adapter.v" | cut -d' ' -f2); do
    echo "== $module"
    yosys -q -p "read_verilog $work/adapter.v; synth_ice40 -top $module; tee -o /dev/stdout stat" |
        grep -E '^ +SB_(LUT4|CARRY|DFF[A-Z]*) ' || true
done
yosys -q -p "read_verilog $work/adapter.v; synth_ice40 -top $top -json $work/adapter.json"
nextpnr-ice40 --hx8k --package ct256 --json "$work/adapter.json" --pack-only 2>&1 | grep -E "ICESTORM_LC:"
