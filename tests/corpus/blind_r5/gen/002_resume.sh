#!/bin/bash
D=/work/blind/r5/runs/002_resume; mkdir -p $D; cd $D
export CKPT_DIR=/tmp/r5_002_ckpt; rm -rf $CKPT_DIR
OMP_NUM_THREADS=1 timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint localhost:29612 --log-dir $D/torchrun_logs --tee 3 /work/blind/r5/gen/002_resume.py > console.log 2>&1
echo "exit=$?"
