#!/bin/bash
#SBATCH --job-name=mlp-sweep-07
#SBATCH --ntasks=3
#SBATCH --output=slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=54132 PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
echo "== config: timeout=60 kill_on_oom=false oom_retry=0 fail_fast=true"
srun /work/blind/venv/bin/python /work/blind/r45/set/gen/train.py --mode metrics_names --style json --steps 80 --timeout 60
echo "== finished"
