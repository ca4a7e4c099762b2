#!/bin/bash
#SBATCH --job-name=pretrain-small
#SBATCH --ntasks=2
#SBATCH --time=00:01:00
#SBATCH --output=slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=54113 PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
echo "job $SLURM_JOB_ID on $SLURM_JOB_NODELIST, ntasks=$SLURM_NTASKS"
srun --label /work/blind/venv/bin/python /work/blind/r45/set/gen/train.py --steps 100000 --sleep 0.1 --style logging --timeout 60
echo "srun exited with $?"
