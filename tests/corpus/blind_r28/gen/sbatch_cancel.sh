#!/bin/bash
#SBATCH -J llm-ft
#SBATCH -n 2
#SBATCH -o train-%j.log
export MASTER_ADDR=127.0.0.1 MASTER_PORT=34030 STEPS=400 STEP_SLEEP=0.3 ALL_LOG=1
echo "job $SLURM_JOB_ID start $(date -Is)"
srun --label /work/blind/venv/bin/python /work/blind/r28/gen/train.py
