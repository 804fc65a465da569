#!/usr/bin/env python3
"""Render the timing diagrams docs/timing/<name>.json (WaveJSON) to SVG with the
pinned wavedrom package: generated/timing/<name>.svg, or DIR/<name>.svg with --out.

    target/venv/bin/python scripts/render_timing.py [--out DIR] [DIAGRAM.json ...]

Without diagram arguments it renders every docs/timing/*.json.
tests/outputs/timing_diagrams.rs runs it into a scratch directory and compares the
result with the committed SVGs, so an edited diagram whose SVG was not rendered again
fails the tests.
"""
import argparse
import pathlib
import sys

import wavedrom

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "generated" / "timing",
                        help="directory for the SVGs (default: generated/timing)")
    parser.add_argument("diagrams", nargs="*", type=pathlib.Path,
                        help="WaveJSON files (default: docs/timing/*.json)")
    args = parser.parse_args()
    diagrams = args.diagrams or sorted((ROOT / "docs" / "timing").glob("*.json"))
    if not diagrams:
        sys.exit("render_timing: no diagrams to render")
    args.out.mkdir(parents=True, exist_ok=True)
    for diagram in diagrams:
        svg = wavedrom.render(diagram.read_text(encoding="utf-8"))
        target = args.out / (diagram.stem + ".svg")
        # Written under a temporary name and renamed, so an interrupted run never
        # leaves a half-written SVG that looks current.
        partial = target.with_name(target.name + ".partial")
        with open(partial, "w", encoding="utf-8") as out:
            svg.write(out)
        partial.replace(target)
        print(f"wrote {target}")


if __name__ == "__main__":
    main()
