#!/bin/bash
#SBATCH -J ddp-ok
#SBATCH -n 4
#SBATCH -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=34036 STEPS=25 ALL_LOG=1 NOISY=1 WORKERS=1 CKPT_DIR=/tmp/r28ckpt035 CKPT_EVERY=10
echo "job $SLURM_JOB_ID start $(date -Is)"
srun -o "%x-%j-%t.out" /work/blind/venv/bin/python /work/blind/r28/gen/train.py
echo "done rc=$?"
