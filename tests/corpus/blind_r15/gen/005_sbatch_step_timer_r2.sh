#!/bin/bash
# Step-timer profiling is enabled only on rank 2 (--step-timer-rank 2). The timer reads its
# start time at step 10 before the profiling window has started (start is None):
# TypeError on rank 2 only; the other ranks then fail in the next DDP allreduce.
. /work/blind/r15/gen/env.sh
R=005_sbatch_step_timer_r2; D=$DATA/ds_005; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 3
cd $RUNS/$R
timeout 200 sbatch --wait $GEN/005_job.sbatch
echo "rc=$?"
