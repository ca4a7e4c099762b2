#!/bin/bash
# torchrun --nproc_per_node=2 (console -> out.log)
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/023_lr_too_high_diverged; rm -rf $D; mkdir -p $D; cd $D
OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/torchrun --nproc_per_node=2 --master_port=27230 $G/train_023.py > out.log 2>&1
echo "rc=$?"
