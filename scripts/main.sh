#!/usr/bin/env bash
# The main job for the default configuration (N=8, W=3): generate the Verilog,
# simulate it against the reference model, synthesize/place it and write the
# reports, all under target/pmugen/event_order_monitor_n8_w3/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
cargo run --release -- flow monitor --events 8 --order-width 3 --cycles 200000 --seed 1 "$@"
