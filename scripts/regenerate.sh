#!/usr/bin/env bash
# Refresh the committed artifacts under generated/ for the default configuration:
# the Verilog, the C header and the resource report (Markdown and JSON).
# With --sweep, also the area sweep at W=3 (table, JSON, SVG plot; takes minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
sweep="${1:-}"
scripts/install-tools.sh
for config in "8 3"; do
    set -- $config
    top="event_order_monitor_n$1_w$2"
    cargo run --release -q -- generate monitor --events "$1" --order-width "$2" --out generated
    cargo run --release -q -- report monitor --events "$1" --order-width "$2" --out "target/pmugen/$top"
    cp "target/pmugen/$top/report.md" "generated/$top.report.md"
    cp "target/pmugen/$top/report.json" "generated/$top.report.json"
done
if [ "$sweep" = "--sweep" ]; then
    cargo run --release -q -- report monitor --sweep --order-width 3 --out target/pmugen/sweep_w3
    for ext in md json svg; do
        cp "target/pmugen/sweep_w3/sweep.$ext" "generated/sweep_w3.$ext"
    done
fi
