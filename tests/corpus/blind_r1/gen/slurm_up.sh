#!/usr/bin/env bash
# Start a private one-node Slurm 22.05 (auth/none, ports 16817/16818) for 011_*.sh.
# Config: gen/slurm.conf (copied to /work/blind/slurm/). Stop it with:
#   kill $(cat /work/blind/slurm/slurmd.pid) $(cat /work/blind/slurm/slurmctld.pid)
set -e
mkdir -p /work/blind/slurm/{state,spool,log}
cp "$(dirname "$0")/slurm.conf" /work/blind/slurm/slurm.conf
export SLURM_CONF=/work/blind/slurm/slurm.conf
/usr/sbin/slurmctld -f $SLURM_CONF -i
sleep 2
/usr/sbin/slurmd -f $SLURM_CONF
sleep 3
sinfo
