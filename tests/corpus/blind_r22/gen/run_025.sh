#!/bin/bash
# HEALTHY: torchrun --nproc_per_node=3, console -> train.log
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/025_healthy_noisy_warnings; rm -rf $D; mkdir -p $D /work/blind/r22/work/out025; cd $D
OUT=/work/blind/r22/work/out025 OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/torchrun --nproc_per_node=3 --master_port=27250 $G/train_025.py > train.log 2>&1
echo "rc=$?"
