#!/bin/bash
#SBATCH -N 1
#SBATCH --ntasks-per-node=2
#SBATCH --cpus-per-task=1
source /work/blind/slurm55/env.sh
echo "job $SLURM_JOB_ID on $(hostname) start $(date)"
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$((20000 + SLURM_JOB_ID % 1000))
cd /tmp/r55w
srun /work/blind/torchenv/bin/python /work/blind/r55/set/gen/fw_pl.py $1
