#!/usr/bin/env bash
# The main job for each design's default configuration: generate the Verilog,
# simulate it against the reference model (reference, native rust-hdl model and
# Verilator in lockstep), synthesize/place it and write the reports, under
# target/pmugen/<top>/; then runs a batch plan on simulated PMUs (target/pmugen/plan/)
# and writes both designs behind each bus with HTML register maps (target/pmugen/soc/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
cargo build --release -q
target/release/pmugen flow monitor --events 8 --order-width 3 --cycles 200000 --seed 1 --engine all
target/release/pmugen flow pmu --threads 4 --counters 2 --counter-width 40 --cycles 200000 --seed 1 --engine all
# Batch planning end to end on the default PMU: 3 events on 9 simulated cores (each
# event on three), one core's event inputs stuck at 0, merged against the true counts.
target/release/pmugen plan --events CPU_CLK_UNHALTED,BRANCHES,DATA_READ --cores 9 --simulate --stuck-core 4 --engine all
# Into a system on chip (docs/bus.md): both designs behind AXI4-Lite and Wishbone,
# with their register descriptions rendered as HTML by PeakRDL, and the report of the
# monitor behind AXI4-Lite (target/pmugen/soc/).
scripts/install-python.sh
soc=target/pmugen/soc
for bus in axi4lite wishbone; do
    target/release/pmugen generate monitor --events 8 --order-width 3 --bus "$bus" --out "$soc"
    target/release/pmugen generate pmu --threads 4 --counters 2 --counter-width 40 --bus "$bus" --out "$soc"
done
for top in event_order_monitor_n8_w3_axil pmu_knc_t4_k2_c40_axil; do
    target/venv/bin/peakrdl html "$soc/$top.rdl" -o "$soc/html/$top"
    echo "register map: $soc/html/$top/index.html"
done
target/release/pmugen report monitor --events 8 --order-width 3 --bus axi4lite --out "$soc/event_order_monitor_n8_w3_axil"
