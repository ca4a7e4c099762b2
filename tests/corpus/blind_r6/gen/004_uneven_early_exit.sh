#!/bin/bash
# two torchrun agents on one machine standing in for two nodes
R=/work/blind/r6/runs/004_uneven_early_exit; rm -rf $R; mkdir -p $R
export OMP_NUM_THREADS=1
cd $R
for n in 0 1; do
  timeout 85 /work/blind/venv/bin/torchrun --nnodes 2 --node-rank $n --nproc-per-node 2 \
     --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29704 --rdzv-id job4 \
     /work/blind/r6/gen/004_uneven_early_exit.py > $R/node$n.log 2>&1 &
done
wait
