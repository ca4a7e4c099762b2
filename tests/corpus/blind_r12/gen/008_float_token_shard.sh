#!/bin/bash
R=/work/blind/r12/runs/008_float_token_shard
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
timeout 60 /work/blind/venv/bin/torchrun --master-port 32108 --nproc-per-node 3 /work/blind/r12/gen/008_float_token_shard.py > $R/out.log 2>&1
echo "exit=$?" >> $R/out.log
rm -rf $R/tok
