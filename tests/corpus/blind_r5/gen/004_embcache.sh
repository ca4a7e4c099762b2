#!/bin/bash
D=/work/blind/r5/runs/004_embcache; mkdir -p $D; cd $D
OMP_NUM_THREADS=1 timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:29614 --tee 3 /work/blind/r5/gen/004_embcache.py > console.log 2>&1
echo "exit=$?"
