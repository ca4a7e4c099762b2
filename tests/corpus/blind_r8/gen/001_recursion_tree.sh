#!/bin/bash
R=/work/blind/r8/runs/001_recursion_tree; rm -rf $R; mkdir -p $R
cd $R; export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 4 --master-port 29901 \
  --log-dir $R/logs --tee 3 /work/blind/r8/gen/001_recursion_tree.py > $R/console.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/001.rc
