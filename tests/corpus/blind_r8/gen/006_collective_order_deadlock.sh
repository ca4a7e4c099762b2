#!/bin/bash
R=/work/blind/r8/runs/006_collective_order_deadlock; rm -rf $R; mkdir -p $R
cd $R; export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 --master-port 29906 \
  /work/blind/r8/gen/006_collective_order_deadlock.py > $R/train.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/006.rc
