#!/usr/bin/env bash
# The main job for each design's default configuration: generate the Verilog,
# simulate it against the reference model (reference, native rust-hdl model and
# Verilator in lockstep), synthesize/place it and write the reports, under
# target/pmugen/<top>/; then runs a batch plan on simulated PMUs (target/pmugen/plan/)
# writes both designs behind each bus with HTML register maps (target/pmugen/bus/),
# and runs the example firmware on the reference SoC, PicoRV32 with both designs on its
# RVFI port (target/pmugen/soc/, docs/soc.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
scripts/install-python.sh   # the current yosys/nextpnr (YoWASP) the reports run, and the Python tools below
cargo build --release -q
target/release/pmugen flow monitor --events 8 --order-width 3 --cycles 200000 --seed 1 --engine all
target/release/pmugen flow pmu --threads 4 --counters 2 --counter-width 40 --cycles 200000 --seed 1 --engine all
# Batch planning end to end on the default PMU: 3 events on 9 simulated cores (each
# event on three), one core's event inputs stuck at 0, merged against the true counts.
target/release/pmugen plan --events CPU_CLK_UNHALTED,BRANCHES,DATA_READ --cores 9 --simulate --stuck-core 4 --engine all
# Into a system on chip (docs/bus.md): both designs behind AXI4-Lite and Wishbone,
# with their register descriptions rendered as HTML by PeakRDL, and the report of the
# monitor behind AXI4-Lite (target/pmugen/bus/); the PMU also behind a 32-bit
# Wishbone slave (docs/bus.md §8).
bus=target/pmugen/bus
for protocol in axi4lite wishbone; do
    target/release/pmugen generate monitor --events 8 --order-width 3 --bus "$protocol" --out "$bus"
    target/release/pmugen generate pmu --threads 4 --counters 2 --counter-width 40 --bus "$protocol" --out "$bus"
done
target/release/pmugen generate pmu --threads 4 --counters 2 --counter-width 40 --bus wishbone --bus-width 32 --out "$bus"
for top in event_order_monitor_n8_w3_axil pmu_knc_t4_k2_c40_axil pmu_knc_t4_k2_c40_wb32; do
    target/venv/bin/peakrdl html "$bus/$top.rdl" -o "$bus/html/$top"
    echo "register map: $bus/html/$top/index.html"
done
target/release/pmugen report monitor --events 8 --order-width 3 --bus axi4lite --out "$bus/event_order_monitor_n8_w3_axil"
# The reference SoC: generate it and build the example firmware (examples/soc/), then
# run each example under Verilator with its retirement log next to it.
soc=target/pmugen/soc
target/release/pmugen soc --out "$soc"
for elf in "$soc"/examples/*.elf; do
    name=$(basename "$elf" .elf)
    echo "== $name"
    target/release/pmugen soc run "$elf" --out "$soc" --trace "$soc/examples/$name.trace.hex" --rvfi-log "$soc/examples/$name.rvfi"
done
