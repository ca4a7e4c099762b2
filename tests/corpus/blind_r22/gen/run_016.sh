#!/bin/bash
# torchrun --nproc_per_node=4 --tee 3 (no --log-dir); console -> console.txt
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/016_prefetch_thread_died; rm -rf $D; mkdir -p $D; cd $D
OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/torchrun --nproc_per_node=4 --master_port=27160 --tee 3 $G/train_016.py > console.txt 2>&1
echo "rc=$?"
