#!/bin/bash
# 026 (healthy): torchrun --log-dir --tee 3, 4 ranks. Rank 2 fails to push metrics (connection refused, traceback
# logged), retries, a UserWarning is printed; everything finishes.
R=/work/blind/r17/runs/026_healthy_metrics_push_retries; rm -rf $R; mkdir -p $R; cd $R
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15 EVENT=metrics EVENT_RANK=2 TORCH_DISTRIBUTED_DEBUG=INFO
/work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 22261 --log-dir $R/logs --tee 3 /work/blind/r17/gen/healthy_train.py > console.txt 2>&1
echo "exit=$?"
