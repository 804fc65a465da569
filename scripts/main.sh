#!/usr/bin/env bash
# The main job for each design's default configuration: generate the Verilog,
# simulate it against the reference model (reference, native rust-hdl model and
# Verilator in lockstep), synthesize/place it and write the reports, under
# target/pmugen/<top>/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
cargo build --release -q
target/release/pmugen flow monitor --events 8 --order-width 3 --cycles 200000 --seed 1 --engine all
target/release/pmugen flow pmu --threads 4 --counters 2 --counter-width 40 --cycles 200000 --seed 1 --engine all
