#!/bin/bash
D=/work/blind/r5/runs/012_weekly; mkdir -p $D; cd $D
timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint localhost:29622 --tee 3 /work/blind/r5/gen/012_weekly.py > console.log 2>&1
echo "exit=$?"
