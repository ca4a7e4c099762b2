#!/bin/bash
#SBATCH --time=1
#SBATCH --ntasks=3
#SBATCH --output=slurm-%j.out
export OMP_NUM_THREADS=1
srun --label /work/made/venv/bin/python /work/made/gen/lockstall.py
