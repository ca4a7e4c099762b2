#!/bin/bash
R=/work/blind/r7/runs/005_twonode_straggler; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
for n in 0 1; do
  NODE_NAME=node$n timeout 90 /work/blind/venv/bin/torchrun --nnodes 2 --nproc-per-node 2 --node-rank $n \
     --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29805 --rdzv-id lmjob42 \
     /work/blind/r7/gen/005_twonode_straggler.py > $R/node$n.log 2>&1 &
done
wait
echo done
