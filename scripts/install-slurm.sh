#!/usr/bin/env bash
# Install Slurm (Debian's munge, slurmctld, slurmd and slurm-client, without their
# recommendations), whose single-node cluster (scripts/slurm-cluster.sh) runs
# `pmugen sweep --slurm`'s test (docs/report.md §8.4). The test command calls it; the
# main job does not need it. Does nothing when they are all present.
set -euo pipefail

# The Slurm daemons are in /usr/sbin, which a non-root PATH may leave out.
slurm_missing() {
    for tool in munged slurmctld slurmd sbatch squeue scontrol; do
        command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || return 0
    done
    return 1
}
if slurm_missing; then
    echo "install-slurm: installing Slurm (munge slurmctld slurmd slurm-client)" >&2
    "$(dirname "$0")/apt-install.sh" --no-install-recommends munge slurmctld slurmd slurm-client
    if slurm_missing; then
        echo "install-slurm: Slurm still missing after apt-get" >&2
        exit 1
    fi
fi
