#!/bin/bash
R=/work/blind/r7/runs/011_srun_emfile; rm -rf $R; mkdir -p $R/out; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1 RUN_DIR=$R
ulimit -n 256   # site default soft limit on the compute nodes
timeout 90 srun -n 4 -J attn-dump -o $R/out/task-%t.log -e $R/out/task-%t.err /work/blind/venv/bin/python -u /work/blind/r7/gen/011_srun_emfile.py > $R/srun.txt 2>&1
echo "exit=$?"
