#!/usr/bin/env bash
# Start a one-node Slurm on this machine for the tests: munged, slurmctld and slurmd on localhost.
# Needs root and Debian's slurm-wlm and munge. Idempotent: a running cluster is left alone.
# Its slurm.conf is its own ($SLURM_CONF, see env.sh): a slurm.conf in /etc/slurm is never touched.
set -euo pipefail
source "$(dirname "$0")/env.sh"
HOST=$(hostname -s)
if sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc'; then
  echo "slurm: already running on $HOST"; exit 0
fi
mkdir -p "$STATE"/{state,spool,log} /run/munge /var/log/munge /var/lib/munge
if [ ! -s /etc/munge/munge.key ]; then
  (mungekey --create --force 2>/dev/null || dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none)
fi
chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge
chmod 400 /etc/munge/munge.key
pgrep -x munged >/dev/null || runuser -u munge -- munged --force  # --force: a stale socket from a killed munged
# the test jobs mostly sleep: advertise more CPUs than the machine has so they run side by side
CPUS=$(( $(nproc) * 4 ))
MEM=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))
cat > "$SLURM_CONF" <<CONF
ClusterName=denpex
SlurmctldHost=$HOST
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$STATE/state
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
ReturnToService=2
SlurmdParameters=config_overrides
# finished jobs stay visible to scontrol (there is no accounting database here)
MinJobAge=86400
OverTimeLimit=0
KillWait=5
InactiveLimit=0
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
our_pid slurmctld >/dev/null || slurmctld
our_pid slurmd >/dev/null || slurmd
for _ in $(seq 1 60); do
  if sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc'; then echo "slurm: up on $HOST ($CPUS CPUs)"; exit 0; fi
  scontrol update nodename="$HOST" state=resume >/dev/null 2>&1 || true
  sleep 1
done
echo "slurm: did not come up; logs in $STATE/log" >&2
tail -20 "$STATE"/log/*.log >&2 || true
exit 1
