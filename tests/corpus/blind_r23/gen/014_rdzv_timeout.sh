#!/bin/bash
# 014: 2-node torchrun job (c10d rendezvous, 127.0.0.1:28141, join_timeout=30s)
# where the second node never starts its agent (its container never came up).
# The user has only node-a's console.
set -u
R=/work/blind/r23; RUN=$R/runs/014_rdzv_timeout; rm -rf $RUN; mkdir -p $RUN
cd $R/work
timeout 150 /work/blind/venv/bin/torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d \
  --rdzv-endpoint 127.0.0.1:28141 --rdzv-id lm-014 --rdzv-conf join_timeout=30 --max-restarts 3 \
  $R/gen/train_lm.py --data-dir data/base --steps 300 --timeout 30 > $RUN/node-a.log 2>&1
echo rc=$?
