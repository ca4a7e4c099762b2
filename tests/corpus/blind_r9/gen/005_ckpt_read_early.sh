#!/bin/bash
R=/work/blind/r9/runs/005_ckpt_read_early; rm -rf $R; mkdir -p $R/shared_ckpt; cd $R
export OMP_NUM_THREADS=1 CKPT_DIR=$R/shared_ckpt
for n in 0 1; do
  timeout 90 /work/blind/venv/bin/torchrun --nnodes 2 --node-rank $n --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 30005 \
    --tee 3 /work/blind/r9/gen/005_ckpt_read_early.py > $R/node$n.log 2>&1 &
done
wait
ls -la $R/shared_ckpt > $R/ckpt_listing.txt
