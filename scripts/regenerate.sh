#!/usr/bin/env bash
# Refresh the committed artifacts under generated/ for the default configurations:
# the Verilog and the resource report (Markdown and JSON).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
for config in "8 3"; do
    set -- $config
    top="event_order_monitor_n$1_w$2"
    cargo run --release -q -- generate monitor --events "$1" --order-width "$2" --out generated
    cargo run --release -q -- report monitor --events "$1" --order-width "$2" --out "target/pmugen/$top"
    cp "target/pmugen/$top/report.md" "generated/$top.report.md"
    cp "target/pmugen/$top/report.json" "generated/$top.report.json"
done
