#!/bin/bash
# real Slurm time limit (1 min) on a job that needs ~3 min; sbatch
source /work/blind/r20/gen/common.sh
D=$R/022_long_sbatch; rm -rf $D; mkdir -p $D; cd $W
export NSTEPS=1000 FMT=plain LOG_EVERY=10 STEP_SLEEP=0.2 CKPT_DIR= PG_TIMEOUT=60
sbatch --wait -o $D/slurm-%j.out $G/job022.sbatch
echo rc=$?
