#!/bin/bash
R=/work/blind/r8/runs/004_grad_accum_last_microbatch; rm -rf $R; mkdir -p $R
cd $R; export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 \
  --log-dir $R/torchelastic --redirects 3 /work/blind/r8/gen/004_grad_accum_last_microbatch.py > $R/launcher.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/004.rc
