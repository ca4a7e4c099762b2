#!/bin/bash
R=/work/blind/r9/runs/001_dl_worker_hang; rm -rf $R; mkdir -p $R
cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:30001 \
  --log-dir $R/torchelastic --tee 3 /work/blind/r9/gen/001_dl_worker_hang.py > $R/console.log 2>&1
echo "exit=$?" >> $R/console.log
