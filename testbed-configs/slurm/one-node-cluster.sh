#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for SlurmClusterTest and for trying sweep.sbatch by hand:
# munged, slurmctld and slurmd on loopback, every file (config, state, spool, logs, pid files) in DIR.
#   one-node-cluster.sh up DIR [--install]   start it (--install: apt-get install slurm-wlm munge first)
#   one-node-cluster.sh down DIR             stop what 'up' started (by the pid files in DIR)
# Then: export SLURM_CONF=DIR/slurm.conf; sinfo; sbatch ... Needs root (the daemons run as root).
# Any failure is one line on stderr and exit code 1; 'up' stops what it started before failing.
set -euo pipefail
die() { echo "one-node-cluster.sh: $*" >&2; exit 1; }
[ $# -ge 2 ] || { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
action=$1
dir=$(realpath -m "$2")
install=${3:-}

stop() {
  for name in slurmd slurmctld munged; do
    if [ -f "$dir/$name.pid" ]; then
      pid=$(cat "$dir/$name.pid")
      kill "$pid" 2> /dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2> /dev/null || true
      rm -f "$dir/$name.pid"
    fi
  done
}

case $action in
  down)
    stop
    exit 0 ;;
  up) ;;
  *) die "unknown action '$action' (up or down)" ;;
esac

[ "$(id -u)" = 0 ] || die "needs root to run slurmctld, slurmd and munged"
if [ "$install" = --install ] && ! command -v slurmctld > /dev/null; then
  command -v apt-get > /dev/null || die "no apt-get to install slurm-wlm and munge"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge) > "$dir.install.log" 2>&1 \
    || die "apt-get install slurm-wlm munge failed (log: $dir.install.log)"
fi
for b in munged slurmctld slurmd sbatch sinfo; do
  command -v "$b" > /dev/null || die "$b is not installed (Debian: apt-get install slurm-wlm munge)"
done
trap 'stop' ERR
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" \
  || { stop; die "munged did not start (log: $dir/munged.log)"; }

host=$(hostname -s)
cat > "$dir/slurm.conf" <<CONF
ClusterName=pfcswitch-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" || { stop; die "slurmctld did not start (log: $dir/slurmctld.log)"; }
slurmd -f "$SLURM_CONF" || { stop; die "slurmd did not start (log: $dir/slurmd.log)"; }
for _ in $(seq 1 60); do
  if sinfo -h -o '%T' 2> /dev/null | grep -qE '^(idle|mixed|allocated)'; then
    echo "one-node-cluster.sh: up: node $host, $(nproc) CPUs; export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 1
done
stop
die "the node did not become idle within 60 s (sinfo: $(sinfo -h -o '%T %E' 2>&1 | head -1); logs in $dir)"
