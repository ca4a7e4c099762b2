#!/bin/bash
R=/work/blind/r9/runs/019_healthy_elastic_restart; rm -rf $R; mkdir -p $R/ckpt; cd $R
export OMP_NUM_THREADS=1 CKPT=$R/ckpt
timeout 90 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 2 --max-restarts 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:30021 \
   --log-dir $R/elastic_logs --redirects 3 /work/blind/r9/gen/019_healthy_elastic_restart.py > $R/torchrun.log 2>&1
echo "exit=$?" >> $R/torchrun.log
rm -rf $R/ckpt
