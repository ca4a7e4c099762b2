#!/bin/bash
#SBATCH --job-name=gpt2-tiny
source /work/blind/r31/gen/env.sh
export MASTER_ADDR=127.0.0.1
echo "job $SLURM_JOB_ID on $(hostname) ntasks=$SLURM_NTASKS start $(date -Is)"
srun --label --kill-on-bad-exit=1 python $G/plain.py
echo "job end rc=$? $(date -Is)"
