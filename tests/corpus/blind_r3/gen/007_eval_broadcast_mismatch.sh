#!/bin/bash
# torchrun with TORCH_DISTRIBUTED_DEBUG=DETAIL, no tee, unprefixed prints
R=/work/blind/r3/runs/007_eval_broadcast_mismatch; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job007; mkdir -p $J; cp /work/blind/r3/gen/007_eval_broadcast_mismatch.py $J/train_pp.py
cd $J
TORCH_DISTRIBUTED_DEBUG=DETAIL /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29507 train_pp.py > $R/console.log 2>&1
echo "exit $?"
