#!/bin/bash
R=/work/blind/r12/runs/012_lr_env_string
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1 LR=1e-3 WD=0.05
timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 2 --master-port 32112 /work/blind/r12/gen/012_lr_env_string.py > $R/sweep_trial_17.log 2>&1
echo "exit=$?" >> $R/sweep_trial_17.log
