#!/bin/bash
R=/work/blind/r7/runs/018_healthy_retries; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
timeout 90 srun --label -n 3 -J robust /work/blind/venv/bin/python -u /work/blind/r7/gen/018_healthy_retries.py > $R/srun_robust.log 2>&1
echo "exit=$?"
