#!/bin/bash
# sbatch -> srun --label (2 tasks) -> torchrun (2 procs each). ~25 s after training starts the job is scancel'ed.
set -u
source /work/blind/r24/gen/common.sh
export SLURM_CONF=/work/blind/slurm24/slurm.conf
N=023_slurm_torchrun_scancel; W=$R/work/j023; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT
JID=$(sbatch --parsable $R/gen/023_slurm_torchrun_scancel.sbatch); echo "job $JID"
wait_for $OUT/slurm-$JID.out "step 100 " 90
sleep 5
scancel $JID
for i in $(seq 1 60); do squeue -h -j $JID 2>/dev/null | grep -q . || break; sleep 2; done
scontrol show job $JID | grep -E 'JobState|RunTime' || true
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
