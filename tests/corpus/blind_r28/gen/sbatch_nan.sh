#!/bin/bash
#SBATCH -J nanrun
#SBATCH -n 4
#SBATCH -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=34019 FAULT=nan FAULT_RANK=2 FAULT_STEP=6 ALL_LOG=1
echo "job $SLURM_JOB_ID on $SLURM_JOB_NODELIST, $SLURM_NTASKS tasks"
srun -o "%x-%j-%t.out" /work/blind/venv/bin/python /work/blind/r28/gen/train.py
echo "srun exit $?"
