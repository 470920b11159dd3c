#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for tests (docs/cluster.md):
#   tools/cluster/local-slurm.sh start   install slurm-wlm and munge when missing, write the
#                                        configuration, start munged, slurmctld and slurmd, and
#                                        wait until sinfo shows the node idle
#   tools/cluster/local-slurm.sh stop    stop the daemons it started (a later start begins with
#                                        no jobs)
#   tools/cluster/local-slurm.sh status  sinfo and squeue
#
# The configuration goes where the Slurm tools look by default, /etc/slurm/slurm.conf, so plain
# sbatch, squeue, scancel and scontrol work in any shell once the cluster is up. An existing
# slurm.conf not written by this script is never replaced. The node is this host (`hostname
# -s`) with the cores and memory `slurmd -C` finds, in one partition; SlurmUser is root; the
# daemons' state, spool, logs and pid files live under TSURU_LOCAL_SLURM_DIR
# (/var/tmp/tsuru-local-slurm). Run as root (or through sudo).
set -euo pipefail

state="${TSURU_LOCAL_SLURM_DIR:-/var/tmp/tsuru-local-slurm}"
conf=/etc/slurm/slurm.conf
marker="# Written by tools/cluster/local-slurm.sh"
partition="${TSURU_LOCAL_SLURM_PARTITION:-local}"

die() {
  echo "local-slurm: $*" >&2
  exit 1
}

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

install_packages() {
  local missing=()
  for p in slurm-wlm munge; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "local-slurm: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

# The pid in a pid file when that process is alive.
live_pid() {
  local pid
  [ -s "$1" ] || return 1
  pid="$(cat "$1")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

write_config() {
  local node cpus_line
  node="$(hostname -s)"
  # slurmd -C prints this host's NodeName line: CPUs, sockets, cores, threads, RealMemory.
  cpus_line="$(slurmd -C | head -1)"
  [[ "$cpus_line" == NodeName=* ]] || die "slurmd -C printed no node line: $cpus_line"
  cpus_line="${cpus_line/NodeName=* CPUs=/NodeName=$node CPUs=}"
  if [ -e "$conf" ] && ! grep -qF "$marker" "$conf"; then
    die "$conf exists and was not written by this script; move it away first"
  fi
  $sudo mkdir -p /etc/slurm "$state"/ctld "$state"/spool
  $sudo tee "$conf" >/dev/null <<EOF
$marker: a one-node cluster for tests.
ClusterName=tsuru-local
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
# No cgroups in a container: processes are tracked by their parent, tasks are not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
ReturnToService=2
# Finished jobs stay visible to scontrol for an hour (there is no accounting database).
MinJobAge=3600
KillWait=10
SlurmctldTimeout=30
SlurmdTimeout=60
$cpus_line State=UNKNOWN
PartitionName=$partition Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
}

start_munge() {
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    return 0  # a munged is running already (not ours: stop leaves it)
  fi
  $sudo mkdir -p /run/munge /var/lib/munge /var/log/munge
  $sudo chown munge:munge /run/munge /var/lib/munge /var/log/munge
  $sudo chmod 0755 /run/munge
  [ -s /etc/munge/munge.key ] || $sudo mungekey --create
  $sudo runuser -u munge -- munged
  echo munged | $sudo tee "$state/started-munged" >/dev/null
  for _ in $(seq 50); do
    munge -n | unmunge >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  die "munged did not answer"
}

node_state() {
  sinfo -h -n "$(hostname -s)" -o %T 2>/dev/null | head -1
}

start() {
  install_packages
  $sudo mkdir -p "$state"
  if live_pid "$state/slurmctld.pid" >/dev/null && live_pid "$state/slurmd.pid" >/dev/null; then
    echo "local-slurm: already running"
  else
    # A fresh cluster: no jobs or node state of an earlier one come back.
    $sudo rm -rf "$state/ctld" "$state/spool" "$state"/*.log
    write_config
    start_munge
    live_pid "$state/slurmctld.pid" >/dev/null || $sudo slurmctld
    live_pid "$state/slurmd.pid" >/dev/null || $sudo slurmd
  fi
  local s=""
  for _ in $(seq 120); do
    s="$(node_state)"
    case "$s" in
      idle | mixed | allocated) break ;;
      drain* | down*)
        $sudo scontrol update NodeName="$(hostname -s)" State=RESUME >/dev/null 2>&1 || true
        ;;
    esac
    sleep 0.5
  done
  case "$s" in
    idle | mixed | allocated) ;;
    *)
      tail -20 "$state/slurmctld.log" "$state/slurmd.log" >&2 || true
      die "the node did not come up (state '$s')"
      ;;
  esac
  sinfo
}

stop_pid_file() {
  local pid
  pid="$(live_pid "$1")" || return 0
  $sudo kill -TERM "$pid"
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "local-slurm: $2 (pid $pid) did not stop" >&2
  return 1
}

stop() {
  local ok=0
  stop_pid_file "$state/slurmd.pid" slurmd || ok=1
  stop_pid_file "$state/slurmctld.pid" slurmctld || ok=1
  if [ -e "$state/started-munged" ]; then
    stop_pid_file /run/munge/munged.pid munged || ok=1
    $sudo rm -f "$state/started-munged"
  fi
  return $ok
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status)
    sinfo
    squeue
    ;;
  *)
    echo "usage: tools/cluster/local-slurm.sh start|stop|status" >&2
    exit 2
    ;;
esac
