#!/usr/bin/env bash
# The test command: install the tools if needed, check formatting and lints, then run
# every test of the workspace (unit tests of each block, then the four test binaries of
# tests/: designs, outputs, cli and long).
# Release profile: the simulations are long, and it shares the CLI's build.
# Compiled Verilator models and tool scratch files go to target/cache (PMUGEN_CACHE).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-tools.sh
scripts/install-python.sh
export PMUGEN_CACHE="${PMUGEN_CACHE:-$PWD/target/cache}"
# ccache (installed by install-tools.sh) keeps the compiled Verilator runtime there too.
export CCACHE_DIR="${CCACHE_DIR:-$PMUGEN_CACHE/ccache}"
cargo fmt --all -- --check
cargo clippy --release --workspace --all-targets -q -- -D warnings
cargo test --release --workspace "$@"
