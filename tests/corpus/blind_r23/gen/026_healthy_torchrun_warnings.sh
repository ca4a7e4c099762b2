#!/bin/bash
# 026: HEALTHY. torchrun 4 ranks --tee 3, TORCH_DISTRIBUTED_DEBUG=INFO,
# DataLoader workers, rank 0 pushes metrics after each eval to a metrics
# gateway that is down (127.0.0.1:28999, nothing listening) -> a WARNING with
# a ConnectionRefusedError traceback each time, caught; training completes.
set -u
R=/work/blind/r23; RUN=$R/runs/026_healthy_torchrun_warnings; rm -rf $RUN; mkdir -p $RUN
cd $R/work
TORCH_DISTRIBUTED_DEBUG=INFO timeout 250 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 --tee 3 \
  $R/gen/train_lm.py --data-dir data/base --steps 500 --log-every 25 --eval-every 100 --ckpt-every 250 \
  --ckpt-dir /tmp/r23_ck026 --workers 1 --metrics-push 127.0.0.1:28999 --timeout 30 > $RUN/train.log 2>&1
echo rc=$?
