#!/bin/bash
# HEALTHY. torchrun --log-dir --tee 3, 3 workers, 2 dataloader workers each (triggers DataLoader worker-count
# warning); rank 1 sees one NaN loss which is skipped collectively; metrics push retried and given up; finishes.
NAME=029_healthy_nan_skip; source /work/blind/r16/gen/common.sh
NAN_AT=17 NAN_RANK=1 FLAKY_PUSH=21929 NUM_WORKERS=2 STEPS=50 \
  $TORCHRUN --standalone --nproc-per-node 3 --log-dir logs --tee 3 $GEN/healthy_train.py > console.log 2>&1
echo "exit code $?" >> console.log
