#!/bin/bash
D=/work/blind/r5/runs/007_pretrain; mkdir -p $D; cd $D
OMP_NUM_THREADS=1 timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint localhost:29617 /work/blind/r5/gen/007_pretrain.py > console.log 2>&1
echo "exit=$?"
