#!/usr/bin/env python3
"""Run one cocotb test module of this directory on one generated Verilog file with
Icarus Verilog (cocotb_tools.runner), write the results XML, and exit non-zero when a
test fails or none ran.

    target/venv/bin/python sim/cocotb/run.py DIR/event_order_monitor_n8_w3_axil.v \\
        event_order_monitor_n8_w3_axil test_monitor_bus

Build files go to target/cocotb/<top>/ (or --build-dir), the results to
<build dir>/<module>.results.xml (or --results); both are printed.
"""

import argparse
import sys
from pathlib import Path
from xml.etree import ElementTree

from cocotb_tools.runner import get_runner

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("verilog", type=Path, help="the generated Verilog file (pmugen generate ... --bus ...)")
    parser.add_argument("top", help="its top module, e.g. pmu_knc_t4_k2_c40_axil")
    parser.add_argument("module", help="the test module in sim/cocotb, e.g. test_pmu_bus")
    parser.add_argument("--build-dir", type=Path, help="default: target/cocotb/<top>")
    parser.add_argument("--results", type=Path, help="results XML; default: <build dir>/<module>.results.xml")
    parser.add_argument("--testcase", help="run only this test (comma-separated names)")
    parser.add_argument("--waves", action="store_true", help="also write <build dir>/<top>.fst")
    args = parser.parse_args()

    verilog = args.verilog.resolve()
    if not verilog.is_file():
        parser.error(f"{verilog} does not exist: generate it first with pmugen generate ... --bus ... --out DIR")
    if not (HERE / f"{args.module}.py").is_file():
        parser.error(f"no test module {args.module}.py in {HERE}")
    build_dir = (args.build_dir or ROOT / "target" / "cocotb" / args.top).resolve()
    results = (args.results or build_dir / f"{args.module}.results.xml").resolve()

    # The test modules import bus_helpers from this directory; the runner hands
    # sys.path to the simulator's Python as PYTHONPATH.
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    runner = get_runner("icarus")
    # always=True: the same top may come from another directory (another scratch
    # generation) with an older time stamp than the last build.
    runner.build(sources=[verilog], hdl_toplevel=args.top, build_dir=build_dir, always=True, waves=args.waves)
    # The test modules find the generated side files (e.g. the PMU's _inputs.json) next
    # to PMUGEN_VERILOG; no __pycache__ in the source tree (only /target/ is ignored).
    env = {"PMUGEN_VERILOG": str(verilog), "PYTHONDONTWRITEBYTECODE": "1"}
    runner.test(test_module=args.module, hdl_toplevel=args.top, build_dir=build_dir, results_xml=str(results),
                testcase=args.testcase, extra_env=env, waves=args.waves)

    outcomes = outcomes_of(results)
    for name, outcome in outcomes.items():
        print(f"{outcome:7} {args.module}.{name}")
    passed = sum(outcome == "passed" for outcome in outcomes.values())
    failed = sum(outcome == "failed" for outcome in outcomes.values())
    print(f"{args.module} on {args.top}: {passed} passed, {failed} failed, "
          f"{len(outcomes) - passed - failed} skipped; results: {results}")
    return 1 if failed or not passed else 0


def outcomes_of(results: Path) -> dict:
    """Each test case of a cocotb results XML: passed, failed or skipped."""
    if not results.is_file():
        sys.exit(f"no results file {results}: the simulation ended abnormally")
    outcomes = {}
    for case in ElementTree.parse(results).iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            outcomes[case.get("name")] = "failed"
        elif case.find("skipped") is not None:
            outcomes[case.get("name")] = "skipped"
        else:
            outcomes[case.get("name")] = "passed"
    return outcomes


if __name__ == "__main__":
    sys.exit(main())
