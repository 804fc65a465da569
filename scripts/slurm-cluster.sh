#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine, for `pmugen sweep --slurm`'s test and
# benchmark (docs/report.md §8.4): munged, slurmctld and slurmd started as plain daemons
# (no systemd), everything they keep (configuration, key, state, spool, logs, PID files)
# in DIR, on two free TCP ports, so that it touches nothing of the machine's own Slurm
# or munge and several can run side by side.
#
#   scripts/slurm-cluster.sh start DIR   # prints the SLURM_CONF to export; about 15 s
#   scripts/slurm-cluster.sh stop DIR    # cancels its jobs, stops the daemons by PID
#
# Needs root (the daemons run as root) and Debian's munge, slurmctld, slurmd and
# slurm-client (scripts/install-slurm.sh installs them).
set -euo pipefail
action="${1:-}"
dir="${2:-}"
if [ -z "$dir" ] || { [ "$action" != start ] && [ "$action" != stop ]; }; then
    echo "usage: $0 start|stop DIR" >&2
    exit 2
fi
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
conf="$dir/slurm.conf"
export SLURM_CONF="$conf"

stop_pid() { # stop_pid NAME PIDFILE: TERM, then KILL after 10 s
    local pid
    [ -f "$2" ] || return 0
    pid="$(cat "$2")"
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$2"
}

if [ "$action" = stop ]; then
    # Stopping slurmd does not stop the jobs it started: cancel them first.
    if [ -f "$dir/slurmctld.pid" ] && kill -0 "$(cat "$dir/slurmctld.pid")" 2>/dev/null; then
        scancel --quiet --full --user="$(id -un)" >/dev/null 2>&1 || true
        for _ in $(seq 50); do
            [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
            sleep 0.2
        done
    fi
    stop_pid slurmd "$dir/slurmd.pid"
    stop_pid slurmctld "$dir/slurmctld.pid"
    stop_pid munged "$dir/munge/munged.pid"
    exit 0
fi

for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol python3; do
    command -v "$tool" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin" command -v "$tool" >/dev/null 2>&1 ||
        { echo "slurm-cluster: $tool not found: run scripts/install-slurm.sh" >&2; exit 1; }
done
export PATH="$PATH:/usr/sbin"
[ "$(id -u)" -eq 0 ] || { echo "slurm-cluster: the daemons run as root: run it as root" >&2; exit 1; }

# munged is strict about its directories: owned by its user, not writable by others,
# and the socket's directory readable by the clients ("Socket is inaccessible").
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/jobs"
chmod 755 "$dir" "$dir/munge"
[ -f "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
socket="$dir/munge/munge.socket"
if [ ${#socket} -gt 100 ]; then
    echo "slurm-cluster: $socket is too long for a socket path (at most 100 bytes): choose a shorter DIR" >&2
    exit 1
fi

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
node="$(hostname -s)"
cpus="$(nproc)"
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10 ))
cat > "$conf" <<EOF
# A single-node cluster made by scripts/slurm-cluster.sh.
ClusterName=pmugen
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
# Finished jobs leave squeue after 2 s, so waiting on squeue ends soon after the last.
MinJobAge=2
SchedulerParameters=sched_min_interval=100000
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

# Daemons get no terminal: whoever reads this script's output would wait for them.
munged --socket="$socket" --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" --force </dev/null >/dev/null 2>&1
slurmctld -i </dev/null >/dev/null 2>&1
slurmd -N "$node" </dev/null >/dev/null 2>&1

for _ in $(seq 150); do
    if [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; then
        echo "export SLURM_CONF=$conf"
        exit 0
    fi
    sleep 0.2
done
echo "slurm-cluster: the node did not come up in 30 s; logs: $dir/slurmctld.log, $dir/slurmd.log, $dir/munge/munged.log" >&2
"$0" stop "$dir"
exit 1
