#!/bin/bash
# Interactive srun from a login shell; the login shell carries a virtual-memory ulimit
# (site default on the login nodes) which srun propagates to the tasks (PropagateResourceLimits).
R=/work/blind/r11; RUN=$R/runs/002_eval_retrieval_alloc
rm -rf $RUN && mkdir -p $RUN && cd $RUN
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31102
ulimit -v 6000000
timeout 90 srun -N1 -n4 --label --kill-on-bad-exit=1 -J dualenc /work/blind/venv/bin/python -u $R/gen/002_eval_retrieval_alloc.py > console.log 2>&1
