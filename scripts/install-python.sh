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
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { echo "install-python: run as root or install sudo" >&2; exit 1; }
        sudo="sudo"
    fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq python3 python3-venv >/dev/null
fi
echo "install-python: FuseSoC into $venv" >&2
python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check fusesoc==2.4.7
"$venv/bin/fusesoc" --version >/dev/null
