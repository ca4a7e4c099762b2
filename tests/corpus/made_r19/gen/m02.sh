#!/bin/bash
#SBATCH --time=1
#SBATCH --ntasks=3
#SBATCH --output=slurm-%j.out
export OMP_NUM_THREADS=1
# a stale holder of the lock (a crashed refresh's child that never exited)
flock "$LOCKFILE" sleep 600 &
sleep 0.5
srun --label /work/made/venv/bin/python /work/made/gen/lockstall.py
