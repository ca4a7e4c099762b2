#!/bin/bash
R=/work/blind/r10/runs/006_loss_dtype_mismatch; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1 TORCH_DISTRIBUTED_DEBUG=DETAIL
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 30106 /work/blind/r10/gen/006_loss_dtype_mismatch.py > $R/console.log 2>&1
echo "rc=$?"
rm -rf $R/shards
