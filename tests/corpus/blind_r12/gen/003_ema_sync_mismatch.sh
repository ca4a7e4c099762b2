#!/bin/bash
R=/work/blind/r12/runs/003_ema_sync_mismatch
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1 TORCH_DISTRIBUTED_DEBUG=DETAIL
timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 32103 /work/blind/r12/gen/003_ema_sync_mismatch.py > $R/console.log 2>&1
echo "exit=$?" >> $R/console.log
