#!/bin/bash
#SBATCH --job-name=pl-regress
#SBATCH --ntasks=2
#SBATCH --ntasks-per-node=2
#SBATCH --output=slurm-%j.out
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 MASTER_PORT=54128
srun --label /work/blind/venv/bin/python /work/blind/r45/set/gen/pl_train.py --mode slurm --epochs 4 --ckpt-dir /work/blind/r45/work/pl_ckpt_slurm
