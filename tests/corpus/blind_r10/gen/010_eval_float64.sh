#!/bin/bash
R=/work/blind/r10/runs/010_eval_float64; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:30110 \
  /work/blind/r10/gen/010_eval_float64.py 2>&1 | tee $R/console.log > /dev/null
echo "rc=${PIPESTATUS[0]}"
rm -f $R/val_features.npy
