#!/usr/bin/env bash
# The sweep runners side by side (docs/report.md §8.6): the same job list (the monitor
# at N = 2..=9, W = 3, iCE40 synthesis only: 8 jobs of 10-20 s) run with --jobs 1,
# with --jobs 2, and as a Slurm job array on a single-node cluster of this machine
# (scripts/slurm-cluster.sh), each into a fresh directory; wall time of each, the
# cluster's start-up, and a check that the three merged results are the same but for
# the times. Prints a Markdown table. About 3 minutes on two idle cores.
#
#   scripts/sweep-bench.sh [EVENTS]     # EVENTS: the --events list, default 2..=9
set -euo pipefail
cd "$(dirname "$0")/.."
events="${1:-2..=9}"
export PMUGEN_CACHE="${PMUGEN_CACHE:-$PWD/target/cache}"
cargo build --release -q
pmugen=target/release/pmugen
out=target/pmugen/sweep-bench
rm -rf "$out"
mkdir -p "$out"
sweep=(sweep monitor --events "$events" --order-width 3 --family ice40 --synth-only)

now() { date +%s.%N; }
seconds() { python3 -c "print(f'{$2 - $1:.1f}')"; }

# Each runner once before timing, so that YoWASP's compiled yosys is in its cache and
# every run starts alike; its own directory, not timed.
"$pmugen" sweep monitor --events 2 --order-width 3 --family ice40 --synth-only --jobs 1 --out "$out/warm-up" >/dev/null 2>&1

declare -A wall
for jobs in 1 2; do
    start=$(now)
    "$pmugen" "${sweep[@]}" --jobs "$jobs" --out "$out/jobs$jobs" > "$out/jobs$jobs.log" 2>&1
    wall[jobs$jobs]=$(seconds "$start" "$(now)")
done

cluster="$out/cluster"
trap 'scripts/slurm-cluster.sh stop "$cluster" >/dev/null 2>&1 || true' EXIT
start=$(now)
eval "$(scripts/slurm-cluster.sh start "$cluster")"
wall[startup]=$(seconds "$start" "$(now)")
start=$(now)
"$pmugen" "${sweep[@]}" --slurm --out "$out/slurm" > "$out/slurm.log" 2>&1
wall[slurm]=$(seconds "$start" "$(now)")
scripts/slurm-cluster.sh stop "$cluster"

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
def merged(name):
    records = json.load(open(f"{out}/{name}/results.json"))
    for r in records:
        r.pop("seconds")
    return records
one = merged("jobs1")
assert all(r["status"] == "ok" for r in one), "every job succeeded"
assert merged("jobs2") == one and merged("slurm") == one, "the three runs merged the same results"
PY

jobs=$(python3 -c "import json; print(len(json.load(open('$out/jobs1/jobs.json'))['jobs']))")
speedup() { python3 -c "print(f'{${wall[jobs1]} / $1:.2f}x')"; }
echo "Same job list ($jobs jobs: pmugen ${sweep[*]}), $(nproc) cores; merged results identical but for the times"
echo
echo "| runner | wall time | speed-up over --jobs 1 |"
echo "|---|---:|---:|"
echo "| --jobs 1 | ${wall[jobs1]} s | 1.00x |"
echo "| --jobs 2 | ${wall[jobs2]} s | $(speedup "${wall[jobs2]}") |"
echo "| --slurm (single-node cluster, $(nproc) CPUs) | ${wall[slurm]} s | $(speedup "${wall[slurm]}") |"
echo "| cluster start-up (scripts/slurm-cluster.sh start) | ${wall[startup]} s | |"
