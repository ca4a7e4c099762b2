#!/bin/bash
R=/work/blind/r8/runs/011_lr_schedule_nan; rm -rf $R; mkdir -p $R
cd $R; export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --master-port 29911 \
  --log-dir $R/elastic --tee 3 /work/blind/r8/gen/011_lr_schedule_nan.py > $R/stdout.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/011.rc
