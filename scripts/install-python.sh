#!/usr/bin/env bash
# The Python tools the tests drive, in a virtual environment under target/venv:
# FuseSoC (pinned). Installs python3-venv with apt-get when Python cannot make a
# virtual environment. Does nothing when the environment is complete.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/venv
if [ -x "$venv/bin/fusesoc" ]; then
    exit 0
fi
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
    echo "install-python: installing python3-venv" >&2
    scripts/apt-install.sh python3 python3-venv
fi
echo "install-python: FuseSoC into $venv" >&2
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check fusesoc==2.4.7
"$venv/bin/fusesoc" --version >/dev/null
