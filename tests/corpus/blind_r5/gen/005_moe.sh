#!/bin/bash
D=/work/blind/r5/runs/005_moe; mkdir -p $D; cd $D
OMP_NUM_THREADS=1 TORCH_DISTRIBUTED_DEBUG=DETAIL timeout 60 /work/blind/venv/bin/python /work/blind/r5/gen/005_moe.py > console.log 2>&1
echo "exit=$?"
