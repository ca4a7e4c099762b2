#!/bin/bash
#SBATCH -J pretrain-tl
#SBATCH -n 3
#SBATCH --time=1
#SBATCH -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=34028 STEPS=400 STEP_SLEEP=0.5 ALL_LOG=1
echo "job $SLURM_JOB_ID start $(date -Is)"
srun -o "%x-%j-%t.out" /work/blind/venv/bin/python /work/blind/r28/gen/train.py
