#!/bin/bash
#SBATCH -J sft-hang
#SBATCH -n 4
#SBATCH --time=1
#SBATCH -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=34029 STEPS=400 STEP_SLEEP=0.2 DIST_TIMEOUT=900 FAULT=read_block FAULT_RANK=1 FAULT_STEP=12
echo "job $SLURM_JOB_ID start $(date -Is)"
srun --label /work/blind/venv/bin/python /work/blind/r28/gen/train.py
