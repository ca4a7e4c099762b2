#!/bin/bash
# A 2-task job submitted with --time=1 (one minute) whose training needs several minutes:
# Slurm cancels it at the time limit.
. /work/blind/r15/gen/env.sh
R=018_sbatch_time_limit; D=$DATA/ds_018; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 2 --chunks 3
cd $RUNS/$R
timeout 300 sbatch --wait $GEN/018_job.sbatch
echo "rc=$?"
