#!/usr/bin/env bash
# Install Debian packages (as root, or through sudo): apt-get update, then install the
# packages named on the command line. Used by install-tools.sh and install-python.sh.
set -euo pipefail
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "apt-install: run as root or install sudo" >&2; exit 1; }
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "$@" >/dev/null
