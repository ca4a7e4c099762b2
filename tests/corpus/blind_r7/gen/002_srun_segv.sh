#!/bin/bash
R=/work/blind/r7/runs/002_srun_segv; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1 MASTER_PORT=29802 MASTER_ADDR=127.0.0.1
timeout 90 srun --label -N1 -n3 -J tokpack /work/blind/venv/bin/python -u /work/blind/r7/gen/002_srun_segv.py > $R/job.log 2>&1
echo "exit=$?"
