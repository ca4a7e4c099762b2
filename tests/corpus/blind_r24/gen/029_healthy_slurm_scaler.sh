#!/bin/bash
# Healthy: sbatch 3 tasks, srun --label.
set -u
source /work/blind/r24/gen/common.sh
export SLURM_CONF=/work/blind/slurm24/slurm.conf
N=029_healthy_slurm_scaler; W=$R/work/j029; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT
JID=$(sbatch --parsable $R/gen/029_healthy_slurm_scaler.sbatch); echo "job $JID"
for i in $(seq 1 80); do squeue -h -j $JID 2>/dev/null | grep -q . || break; sleep 3; done
scontrol show job $JID | grep -E 'JobState|RunTime' || true
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
