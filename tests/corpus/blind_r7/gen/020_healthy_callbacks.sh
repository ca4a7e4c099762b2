#!/bin/bash
R=/work/blind/r7/runs/020_healthy_callbacks; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 --redirects 3 --log-dir $R/logs \
   /work/blind/r7/gen/020_healthy_callbacks.py > $R/torchrun.out 2>&1
echo "exit=$?"
