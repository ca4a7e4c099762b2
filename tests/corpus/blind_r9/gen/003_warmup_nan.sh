#!/bin/bash
R=/work/blind/r9/runs/003_warmup_nan; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --master-port 30003 \
  --log-dir $R/logs --redirects 3 /work/blind/r9/gen/003_warmup_nan.py > $R/launcher.log 2>&1
echo "exit=$?" >> $R/launcher.log
