#!/bin/bash
R=/work/blind/r8/runs/020_healthy_elastic_restart_resume; rm -rf $R; mkdir -p $R
rm -rf /work/blind/r8/meta/020; mkdir -p /work/blind/r8/meta/020
cd $R; export OMP_NUM_THREADS=1 CKPT=/work/blind/r8/meta/020/last.pt
timeout 90 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29920 --rdzv-id train20 --max-restarts 1 \
  /work/blind/r8/gen/020_healthy_elastic_restart_resume.py > $R/train_console.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/020.rc
