#!/usr/bin/env bash
# The sweep runners side by side (docs/report.md §8.6): the same job list (the monitor
# at N = 8..=15, W = 3, iCE40 synthesis only: 8 jobs of 10-20 s) run with --jobs 1,
# with --jobs 2, and as a Slurm job array on a single-node cluster of this machine
# (scripts/slurm-cluster.sh), each into a fresh directory, ROUNDS times in turn; the
# median wall time of each runner, how many jobs it kept running at once (the jobs' own
# times over its wall time), the cluster's start-up, the load average before and after,
# and a check that every run merged the same results but for the times. Prints a
# Markdown table. About 3 minutes per round on two idle cores.
#
#   scripts/sweep-bench.sh [ROUNDS [EVENTS]]    # default 3 rounds, --events 8..=15
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
events="${2:-8..=15}"
export PMUGEN_CACHE="${PMUGEN_CACHE:-$PWD/target/cache}"
cargo build --release -q
pmugen=target/release/pmugen
out=target/pmugen/sweep-bench
rm -rf "$out"
mkdir -p "$out"
sweep=(sweep monitor --events "$events" --order-width 3 --family ice40 --synth-only)
load() { cut -d' ' -f1 /proc/loadavg; }
load_before=$(load)

# One job before timing, so that YoWASP's compiled yosys is in its cache and every run
# starts alike; its own directory, not timed.
"$pmugen" sweep monitor --events 2 --order-width 3 --family ice40 --synth-only --jobs 1 \
    --out "$out/warm-up" >/dev/null 2>&1

cluster="$out/cluster"
trap 'scripts/slurm-cluster.sh stop "$cluster" >/dev/null 2>&1 || true' EXIT
start=$(date +%s.%N)
eval "$(scripts/slurm-cluster.sh start "$cluster")"
startup=$(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')")

timed() { # timed NAME ARGS...: run the sweep into $out/NAME, append "NAME seconds"
    local name="$1" begin
    shift
    begin=$(date +%s.%N)
    "$pmugen" "${sweep[@]}" "$@" --out "$out/$name" > "$out/$name.log" 2>&1
    python3 -c "print('${name%-*}', $(date +%s.%N) - $begin)" >> "$out/times.txt"
}
for round in $(seq "$rounds"); do
    timed "jobs1-$round" --jobs 1
    timed "jobs2-$round" --jobs 2
    timed "slurm-$round" --slurm
done
scripts/slurm-cluster.sh stop "$cluster"

python3 - "$out" "$rounds" "$startup" "$load_before" "$(load)" "$(nproc)" "${sweep[*]}" <<'PY'
import json, statistics, sys
out, rounds, startup, before, after, cores, command = sys.argv[1:]
def merged(name):
    records = json.load(open(f"{out}/{name}/results.json"))
    for r in records:
        r.pop("seconds")
    return records
first = merged("jobs1-1")
assert all(r["status"] == "ok" for r in first), "every job succeeded"
for runner in ("jobs1", "jobs2", "slurm"):
    for n in range(1, int(rounds) + 1):
        assert merged(f"{runner}-{n}") == first, f"{runner}-{n} merged other results"
times, busy = {}, {}
for line in open(f"{out}/times.txt"):
    runner, seconds = line.split()
    times.setdefault(runner, []).append(float(seconds))
    # Jobs running at once, on average: the jobs' own times over the run's wall time.
    name = f"{runner}-{len(times[runner])}"
    jobs_time = sum(r["seconds"] for r in json.load(open(f"{out}/{name}/results.json")))
    busy.setdefault(runner, []).append(jobs_time / float(seconds))
median = {runner: statistics.median(t) for runner, t in times.items()}
print(f"Same job list ({len(first)} jobs: pmugen {command}), {cores} cores, {rounds} rounds, load average "
      f"{before} before and {after} after; every run merged the same results but for the times\n")
print("| runner | median wall time | each round | speed-up over --jobs 1 | jobs running at once |\n"
      "|---|---:|---|---:|---:|")
names = {"jobs1": "--jobs 1", "jobs2": "--jobs 2", "slurm": f"--slurm (single-node cluster, {cores} CPUs)"}
for runner in ("jobs1", "jobs2", "slurm"):
    each = ", ".join(f"{t:.1f}" for t in times[runner])
    speedup = median["jobs1"] / median[runner]
    print(f"| {names[runner]} | {median[runner]:.1f} s | {each} | {speedup:.2f}x | {statistics.median(busy[runner]):.2f} |")
print(f"| cluster start-up (scripts/slurm-cluster.sh start) | {float(startup):.1f} s | | | |")
PY
