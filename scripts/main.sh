#!/usr/bin/env bash
# The main job for each design's default configuration: generate the Verilog,
# simulate it against the reference model (reference, native rust-hdl model and
# Verilator in lockstep), synthesize/place it and write the reports, under
# target/pmugen/<top>/; then runs a batch plan on simulated PMUs (target/pmugen/plan/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
cargo build --release -q
target/release/pmugen flow monitor --events 8 --order-width 3 --cycles 200000 --seed 1 --engine all
target/release/pmugen flow pmu --threads 4 --counters 2 --counter-width 40 --cycles 200000 --seed 1 --engine all
# Batch planning end to end on the default PMU: 3 events on 9 simulated cores (each
# event on three), one core's event inputs stuck at 0, merged against the true counts.
target/release/pmugen plan --events CPU_CLK_UNHALTED,BRANCHES,DATA_READ --cores 9 --simulate --stuck-core 4 --engine all
