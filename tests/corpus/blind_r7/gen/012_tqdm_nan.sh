#!/bin/bash
R=/work/blind/r7/runs/012_tqdm_nan; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1 PYTHONPATH=/work/blind/r7/pylib
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29812 /work/blind/r7/gen/012_tqdm_nan.py > $R/train_console.log 2>&1
echo "exit=$?"
