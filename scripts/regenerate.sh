#!/usr/bin/env bash
# Refresh the committed artifacts under generated/ for each design's default
# configuration, bare and behind each bus (docs/bus.md; the PMU also behind its
# 32-bit slaves, docs/bus.md §8): the Verilog, the C headers and drivers, register
# descriptions and tables, the FuseSoC cores, and the resource report (Markdown and
# JSON) on every FPGA family (docs/report.md; the PMU's with every block synthesized
# alone). With --sweep, also the monitor's area
# sweep at W=3 on the iCE40-HX8K and, to N = 24, on the ECP5 LFE5U-25F (tables, the
# merged results as JSON, SVG plots) and its build options compared at N=8/16/32 with
# the hand-written RTL figures (docs/monitor.md §7.3), about 1.5 hours on 2 cores, most
# of it the N = 28 and N = 32 placements (each nextpnr-ice40 run stops at the report's
# 30-minute limit); and the PMU's synthesis-only sweep over its configuration space on
# iCE40 and ECP5 with its area model (docs/report.md §8.5), about 1.5 hours of one core,
# and the profile table's size at the grid's corners, about 20 minutes of two.
set -euo pipefail
cd "$(dirname "$0")/.."
sweep="${1:-}"
# The PMU's area model (docs/report.md §8.5): its synthesized LUTs in these terms.
PMU_MODEL="T*K*CW + T*K + T + K + [D=2]*K*CW + 1"
# ... and with the profile table (E > 0).
PMU_PROFILE_MODEL="T*K*CW + T*K + T + K + 1 + [E>0]*K*CW + [E>0]*T + [E>0]"
scripts/install-tools.sh
scripts/install-python.sh
cargo build --release -q
pmugen=target/release/pmugen
# A sweep's merged results and area model (in $1) as generated/$2.* and $2_model.*.
commit_sweep() {
    for ext in json csv md svg; do
        cp "$1/results.$ext" "generated/$2.$ext"
    done
    for ext in json md svg; do
        cp "$1/model.$ext" "generated/$2_model.$ext"
    done
}

# The event-order monitor, N=8, W=3.
for bus in none axi4lite wishbone; do
    $pmugen generate monitor --events 8 --order-width 3 --bus $bus --out generated
done
$pmugen report monitor --events 8 --order-width 3 --family all --out target/pmugen/event_order_monitor_n8_w3
cp target/pmugen/event_order_monitor_n8_w3/report.md generated/event_order_monitor_n8_w3.report.md
cp target/pmugen/event_order_monitor_n8_w3/report.json generated/event_order_monitor_n8_w3.report.json

# The PMU, T=4, K=2, CW=40 with the Knights Corner event table.
for bus in none axi4lite wishbone; do
    $pmugen generate pmu --threads 4 --counters 2 --counter-width 40 --bus $bus --out generated
done
for bus in axi4lite wishbone; do
    $pmugen generate pmu --threads 4 --counters 2 --counter-width 40 --bus $bus --bus-width 32 --out generated
done
# The PMU of a one-hart RISC-V core, its events from the RVFI port (docs/soc.md).
for bus in "--bus none" "--bus axi4lite --bus-width 32" "--bus wishbone --bus-width 32"; do
    $pmugen generate pmu --threads 1 --counters 4 --counter-width 40 --rvfi $bus --out generated
done
$pmugen report pmu --threads 4 --counters 2 --counter-width 40 --family all --blocks --out target/pmugen/pmu_knc_t4_k2_c40
cp target/pmugen/pmu_knc_t4_k2_c40/report.md generated/pmu_knc_t4_k2_c40.report.md
cp target/pmugen/pmu_knc_t4_k2_c40/report.json generated/pmu_knc_t4_k2_c40.report.json
target/venv/bin/python scripts/render_timing.py   # docs/timing/*.json -> generated/timing/*.svg

if [ "$sweep" = "--sweep" ]; then
    $pmugen report monitor --sweep --order-width 3 --family ice40 --out target/pmugen/sweep_w3
    for ext in md svg; do
        cp "target/pmugen/sweep_w3/sweep.$ext" "generated/sweep_w3.$ext"
    done
    cp target/pmugen/sweep_w3/results.json generated/sweep_w3.json
    # ECP5 to N = 24: N = 28 and 32 route slowly on it (more than 10 minutes each here).
    $pmugen report monitor --sweep --order-width 3 --family ecp5 --sweep-events 2,4,6,8,10,12,16,20,24 \
        --out target/pmugen/sweep_w3_ecp5
    for ext in md svg; do
        cp "target/pmugen/sweep_w3_ecp5/sweep.$ext" "generated/sweep_w3_ecp5.$ext"
    done
    cp target/pmugen/sweep_w3_ecp5/results.json generated/sweep_w3_ecp5.json
    # The PMU's corners and each parameter's effect, synthesis only, one core.
    $pmugen sweep pmu --threads 1,2,4 --counters 1,2,4 --counter-width 16,40,64 --trace-depth 2,256,1024 \
        --family ice40,ecp5 --synth-only --jobs 1 --model "$PMU_MODEL" --out target/pmugen/sweep-pmu
    commit_sweep target/pmugen/sweep-pmu pmu_sweep
    # The profile table's size E at the corners of the grid, two jobs at a time.
    $pmugen sweep pmu --threads 1,4 --counters 1,4 --counter-width 16,64 --trace-depth 256 \
        --profile-entries 0,16,256,4096 --family ice40,ecp5 --synth-only --jobs 2 \
        --model "$PMU_PROFILE_MODEL" --out target/pmugen/sweep-pmu-profile
    commit_sweep target/pmugen/sweep-pmu-profile pmu_sweep_profile
    $pmugen report monitor --compare --out target/pmugen/compare
    for ext in md json; do
        cp "target/pmugen/compare/compare.$ext" "generated/monitor_compare.$ext"
    done
fi
