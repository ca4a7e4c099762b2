#!/bin/bash
# torchrun --tee 3 --log-dir, 3 workers; loss grows geometrically (bad LR warmup multiplier bug) and rank 0's
# divergence guard raises once loss > 1e6
NAME=020_loss_divergence; source /work/blind/r16/gen/common.sh
DIVERGE=1 STEPS=200 LOG_EVERY=2 LOGFMT=logging \
  $TORCHRUN --standalone --nproc-per-node=3 --log-dir logs --tee 3 $TRAIN > console.log 2>&1
