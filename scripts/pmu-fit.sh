#!/usr/bin/env bash
# Which PMU configurations fit which iCE40 device: the full report (yosys synth_ice40,
# nextpnr-ice40 on the HX8K ct256 and the UP5K sg48) for a grid of (T, K, CW, D, AW), and a
# Markdown table of logic cells and Fmax in target/pmugen/pmu-fit/fit.md (copied to
# generated/pmu_fit.md). Fmax (in the pin harness) is measured for the configurations
# of the goals in docs/figures.md §2; the others get their logic cells, RAM blocks and fit only
# (`--no-fmax`). About 15 minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
cargo build --release -q
out=target/pmugen/pmu-fit
mkdir -p "$out"
timed="4,2,40,256,32 1,2,40,256,32"
configs="$timed 1,1,16,2,16 1,4,40,256,32 2,2,40,256,32 2,4,40,256,32 3,2,40,256,32 4,1,40,256,32 4,2,40,64,32 4,2,40,1024,32 4,2,64,256,48 4,3,40,256,32"
for config in $configs; do
    IFS=, read -r t k cw d aw <<< "$config"
    name="t${t}_k${k}_c${cw}_d${d}_a${aw}"
    fmax="--no-fmax"
    case " $timed " in *" $config "*) fmax="" ;; esac
    if [ -f "$out/$name/report.json" ] && [ "${1:-}" != "--again" ]; then continue; fi
    echo "report $name ..." >&2
    target/release/pmugen report pmu --threads "$t" --counters "$k" --counter-width "$cw" \
        --trace-depth "$d" --address-width "$aw" $fmax --out "$out/$name" > "$out/$name.log" 2>&1
done
python3 - "$out" $configs > "$out/fit.md" <<'PY'
import json, sys
out, configs = sys.argv[1], sys.argv[2:]
print("PMU area and speed on iCE40 (default table; yosys 0.23 synth_ice40, nextpnr-ice40 0.4, seed 1;")
print("Fmax measured in the pin harness, see docs/pmu.md §8, for the first two rows; the others are")
print("placed for their logic cells, block RAMs and fit only, `report pmu --no-fmax`)\n")
print("| T | K | CW | D | AW | flip-flops | SB_RAM40_4K | LUT4 | logic cells | HX8K (7680 LCs, 32 RAMs) | UP5K (5280 LCs, 30 RAMs) |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
for config in configs:
    t, k, cw, d, aw = config.split(",")
    r = json.load(open(f"{out}/t{t}_k{k}_c{cw}_d{d}_a{aw}/report.json"))
    def device(p):
        if not p["fits"]:
            return "does not fit"
        fmax = p["fmax_mhz"]
        return f"fits, {fmax:.1f} MHz" if fmax else "fits"
    lc = r["placements"][0]["logic_cells"]
    print(f"| {t} | {k} | {cw} | {d} | {aw} | {r['total_flip_flops']} | {r['synthesis']['ram']} | {r['synthesis']['lut4']} | {lc} | "
          f"{device(r['placements'][0])} | {device(r['placements'][1])} |")
PY
cp "$out/fit.md" generated/pmu_fit.md
cat "$out/fit.md"
