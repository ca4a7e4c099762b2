#!/bin/bash
R=/work/blind/r8/runs/014_busy_loop_rank; rm -rf $R; mkdir -p $R
cd $R; export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 --master-port 29914 \
  --log-dir $R/logs --tee 3 /work/blind/r8/gen/014_busy_loop_rank.py > $R/console.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/014.rc
