#!/bin/bash
R=/work/blind/r10/runs/021_healthy_amp_warmup; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:30121 \
  --log-dir $R/logs --tee 3 /work/blind/r10/gen/021_healthy_amp_warmup.py > $R/console.log 2>&1
echo "rc=$?"
