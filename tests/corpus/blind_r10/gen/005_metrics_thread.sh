#!/bin/bash
R=/work/blind/r10/runs/005_metrics_thread; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --log-dir $R/torchrun_logs --redirects 3 \
  /work/blind/r10/gen/005_metrics_thread.py > $R/console.log 2>&1
echo "rc=$?"
rm -f $R/final.pt $R/metrics.jsonl
