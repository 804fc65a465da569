#!/usr/bin/env bash
# The main job: every capability of pmugen on each design's default configuration,
# in about five minutes on a fresh two-core machine, the installs included (README "Development").
#   - the monitor and the PMU: generate, simulate against the reference model (reference,
#     native rust-hdl model and Verilator in lockstep), synthesize, place and report
#     (target/pmugen/<top>/); the monitor timed, the PMU placed without its Fmax;
#   - a batch plan on simulated PMUs (target/pmugen/plan/);
#   - both designs behind each bus, with HTML register maps (target/pmugen/bus/);
#   - the reference SoC, PicoRV32 with both designs on its RVFI port: every example
#     firmware run under Verilator, and profile.c's profile (target/pmugen/soc/);
#   - formal proofs of a small PMU and monitor, a small sweep on both cores, and the
#     monitor's iCEBreaker bitstream (target/pmugen/prove/, sweep/, icebreaker/).
# A second run reuses what is still valid (reports of the same Verilog and tools, the
# compiled Verilator models) and says so. What it leaves out is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
command -v cc >/dev/null 2>&1 || scripts/install-tools.sh
start=$SECONDS
step() { printf '\n== [%d s] %s\n' $((SECONDS - start)) "$*"; }

# Rust needs none of the tools (only the C compiler it links with, which Debian's Rust
# brings; install-tools.sh installs it first where it is missing).
step "build pmugen (cargo build --release) while the tools install"
cargo build --release -q >target/main-build.log 2>&1 &
build=$!
scripts/install-tools.sh
scripts/install-python.sh   # the current yosys/nextpnr (YoWASP) the reports run, and the Python tools below
if ! wait "$build"; then
    cat target/main-build.log >&2
    exit 1
fi
pmugen=target/release/pmugen
installed=$SECONDS

step "the event-order monitor, N=8, W=3: generate, simulate, report with Fmax"
$pmugen flow monitor --events 8 --order-width 3 --cycles 200000 --seed 1 --engine all
step "the PMU, T=4, K=2, CW=40: generate, simulate, report (placed, Fmax left out)"
$pmugen flow pmu --threads 4 --counters 2 --counter-width 40 --cycles 200000 --seed 1 --engine all --no-fmax

# Batch planning end to end on the default PMU: 3 events on 9 simulated cores (each
# event on three), one core's event inputs stuck at 0, merged against the true counts.
step "plan: 3 events on 9 simulated cores, one stuck"
$pmugen plan --events CPU_CLK_UNHALTED,BRANCHES,DATA_READ --cores 9 --simulate --stuck-core 4 --engine all

# Into a system on chip (docs/bus.md): both designs behind AXI4-Lite and Wishbone,
# with their register descriptions rendered as HTML by PeakRDL, and the report of the
# monitor behind AXI4-Lite; the PMU also behind a 32-bit Wishbone slave (docs/bus.md §8).
step "both designs behind AXI4-Lite and Wishbone, register maps in HTML"
bus=target/pmugen/bus
for protocol in axi4lite wishbone; do
    $pmugen generate monitor --events 8 --order-width 3 --bus "$protocol" --out "$bus"
    $pmugen generate pmu --threads 4 --counters 2 --counter-width 40 --bus "$protocol" --out "$bus"
done
$pmugen generate pmu --threads 4 --counters 2 --counter-width 40 --bus wishbone --bus-width 32 --out "$bus"
for top in event_order_monitor_n8_w3_axil pmu_knc_t4_k2_c40_axil pmu_knc_t4_k2_c40_wb32; do
    target/venv/bin/peakrdl html "$bus/$top.rdl" -o "$bus/html/$top"
    echo "register map: $bus/html/$top/index.html"
done
$pmugen report monitor --events 8 --order-width 3 --bus axi4lite --out "$bus/event_order_monitor_n8_w3_axil"

# The reference SoC: generate it and build the example firmware (examples/soc/), run
# each example under Verilator with its retirement log next to it, then profile
# profile.c from its trace (summed in the profile table).
step "the reference SoC: every example firmware under Verilator"
soc=target/pmugen/soc
$pmugen soc --out "$soc"
for elf in "$soc"/examples/*.elf; do
    name=$(basename "$elf" .elf)
    echo "== $name"
    $pmugen soc run "$elf" --out "$soc" --trace "$soc/examples/$name.trace.hex" --rvfi-log "$soc/examples/$name.rvfi"
done
step "profile.c's profile, per function and block"
design=$(ls "$soc"/pmu_riscv_*_rvfi_picorv32_design.json)
$pmugen profile "$soc/examples/profile.trace.hex" --elf "$soc/examples/profile.elf" --design "$design" \
    --sort BRANCH_TAKEN --out "$soc/profile"

step "formal proofs: a one-thread PMU and a 3-event monitor, by induction"
$pmugen prove pmu --threads 1 --counters 1 --trace-depth 2 --mode prove --out target/pmugen/prove
$pmugen prove monitor --events 3 --mode prove --out target/pmugen/prove
step "a sweep: the monitor at N = 4..=7, iCE40 synthesis, two jobs at a time"
$pmugen sweep monitor --events 4..=7 --order-width 3 --family ice40 --synth-only --jobs 2 \
    --model "N + 1" --out target/pmugen/sweep
step "the monitor's iCEBreaker bitstream"
$pmugen build --board icebreaker --out target/pmugen/icebreaker

# What was left out, with the figures the committed report holds.
step "done: $((SECONDS - start)) s, of which $((installed - start)) s the build and the installs"
target/venv/bin/python - <<'EOF'
import json
report = json.load(open("generated/pmu_knc_t4_k2_c40.report.json"))
lines = []
for family in report["families"]:
    for placement in family["placements"]:
        if placement.get("fmax_mhz"):
            lines.append(f"  {placement['device']}: {placement['logic_cells']:,} logic cells, "
                         f"Fmax {placement['fmax_mhz']:.1f} MHz")
print("Left out: the default PMU's Fmax (routing its pin harness takes about 30 minutes on two")
print("cores). One command runs it: pmugen report pmu --threads 4 --counters 2 --counter-width 40")
print("The committed report (generated/pmu_knc_t4_k2_c40.report.md) has:")
print("\n".join(lines))
print("Also one command each: the whole PMU report with every block alone (--family all --blocks),")
print("the committed sweeps (scripts/regenerate.sh --sweep), the SoC on a board (pmugen soc --board).")
EOF
