#!/bin/bash
R=/work/blind/r12/runs/017_healthy_logging_error
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 2 --master-port 32117 /work/blind/r12/gen/017_healthy_logging_error.py > $R/train.log 2>&1
echo "exit=$?" >> $R/train.log
