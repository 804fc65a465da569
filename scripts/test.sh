#!/usr/bin/env bash
# The test command: install the tools if needed, then run every test of the
# workspace (unit tests of each block, whole-design tests in tests/).
# Release profile: the simulations are long, and it shares the CLI's build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
scripts/install-python.sh
cargo test --release --workspace "$@"
