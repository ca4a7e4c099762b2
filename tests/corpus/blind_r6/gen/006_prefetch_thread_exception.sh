#!/bin/bash
R=/work/blind/r6/runs/006_prefetch_thread_exception; rm -rf $R; mkdir -p $R
export OMP_NUM_THREADS=1
cd $R
timeout 85 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29706 --redirects 3 --log-dir $R/logs \
  /work/blind/r6/gen/006_prefetch_thread_exception.py > $R/console.log 2>&1
echo "exit=$?" > $R/exit_code
