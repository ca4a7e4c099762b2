#!/bin/bash
# 3 plain python processes, env://, all appending stdout+stderr to one file job.log
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/017_dataloader_worker_sigbus; rm -rf $D; mkdir -p $D; cd $D
export MASTER_ADDR=127.0.0.1 MASTER_PORT=27170 WORLD_SIZE=3 OMP_NUM_THREADS=1
for r in 0 1 2; do RANK=$r LOCAL_RANK=$r timeout 120 /work/blind/venv/bin/python $G/train_017.py >> job.log 2>&1 & done
wait; echo done
