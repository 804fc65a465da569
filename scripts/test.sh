#!/usr/bin/env bash
# The test command: install the tools if needed, check formatting and lints, then run
# every test of the workspace (unit tests of each block, the four test binaries of
# tests/: designs, outputs, cli and long, and the doc tests).
# Release profile: the simulations are long, and it shares the CLI's build.
# Compiled Verilator models and tool scratch files go to target/cache (PMUGEN_CACHE).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
start=$SECONDS
step() { printf '== [%d s] %s\n' $((SECONDS - start)) "$*"; }
command -v cc >/dev/null 2>&1 || scripts/install-tools.sh
step "build the tests while the tools install"
# Rust needs none of the tools (only the C compiler it links with, which Debian's Rust
# brings; install-tools.sh installs it first where it is missing).
cargo test --release --workspace --no-run -q >target/test-build.log 2>&1 &
build=$!
scripts/install-tools.sh
scripts/install-slurm.sh
scripts/install-python.sh
if ! wait "$build"; then
    cat target/test-build.log >&2
    exit 1
fi
export PMUGEN_CACHE="${PMUGEN_CACHE:-$PWD/target/cache}"
# ccache (installed by install-tools.sh) keeps the compiled Verilator runtime there too.
export CCACHE_DIR="${CCACHE_DIR:-$PMUGEN_CACHE/ccache}"
step "cargo fmt and clippy"
cargo fmt --all -- --check
cargo clippy --release --workspace --all-targets -q -- -D warnings
step "cargo test: the long tests (tests/long) beside every other test binary"
# The long tests take most of the time: the others (each crate's unit tests, cli, designs,
# outputs, doc tests) run beside them rather than before, so that both cores stay busy
# to the end. Every binary runs, a failing one included, so that one run shows every
# failure; the others' output follows the long tests'.
others() {
    local status=0
    cargo test --release --workspace --no-fail-fast --lib --bins --test cli --test designs --test outputs "$@" ||
        status=1
    cargo test --release --workspace --doc "$@" || status=1
    return $status
}
others "$@" >target/test-others.log 2>&1 &
others_pid=$!
status=0
cargo test --release --test long --no-fail-fast "$@" || status=1
wait "$others_pid" || status=1
step "the other test binaries (unit tests, cli, designs, outputs, doc tests)"
cat target/test-others.log
step "done"
exit $status
