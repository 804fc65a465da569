#!/usr/bin/env bash
# Generate every PMU configuration of the default table (T in 1..=4, K in 1..=4,
# CW in 16..=64: 784 designs), lint each with `verilator --lint-only -Wall` (only
# DECLFILENAME waived: one file holds all modules of a design) and check it with
# yosys `hierarchy -check; proc; check -assert`. Two designs at a time; about ten
# minutes on two cores. Prints the failing designs and exits non-zero if any fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
cargo build --release -q
dir=target/pmugen/check-configs
rm -rf "$dir" && mkdir -p "$dir"
check() {
    t=$1 k=$2 cw=$3 dir=$4
    top="pmu_knc_t${t}_k${k}_c${cw}"
    out="$dir/$top"
    target/release/pmugen generate pmu --threads "$t" --counters "$k" --counter-width "$cw" --out "$out" > /dev/null
    if ! verilator --lint-only -Wall -Wno-DECLFILENAME --top-module "$top" "$out/$top.v" > "$out/lint.log" 2>&1; then
        echo "FAIL lint $top (see $out/lint.log)"; return 1
    fi
    if ! yosys -q -p "read_verilog $out/$top.v; hierarchy -check -top $top; proc; check -assert" > "$out/yosys.log" 2>&1; then
        echo "FAIL yosys $top (see $out/yosys.log)"; return 1
    fi
    echo "ok $top"
}
export -f check
for t in 1 2 3 4; do for k in 1 2 3 4; do for cw in $(seq 16 64); do echo "$t $k $cw $dir"; done; done; done \
    | xargs -P 2 -n 4 bash -c 'check "$@"' _ > "$dir/results.txt" || true
passed=$(grep -c '^ok ' "$dir/results.txt" || true)
echo "$passed of 784 PMU configurations generate, lint clean and pass yosys"
if grep '^FAIL' "$dir/results.txt"; then
    exit 1
fi
[ "$passed" -eq 784 ]
