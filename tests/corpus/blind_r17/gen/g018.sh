#!/bin/bash
# 018: torchrun --log-dir (no --tee), 4 ranks, @record -> error.json. Rank 2's shard has 129 samples, so its last
# batch has 1 sample; std over dim 0 of one sample is NaN, anomaly mode raises in backward on rank 2.
R=/work/blind/r17/runs/018_single_sample_batch_nan; rm -rf $R; mkdir -p $R; cd $R
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15 REMAINDER_RANK=2
/work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 22181 --log-dir $R/logs /work/blind/r17/gen/bn_train.py > launcher.txt 2>&1
echo "exit=$?"
