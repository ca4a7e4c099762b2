#!/bin/bash
# 007: torchrun 4 ranks, TORCH_DISTRIBUTED_DEBUG=DETAIL, gradients averaged by hand (no DDP: DDP+DETAIL segfaults on this torch build). Every 25 steps the
# ranks all_reduce per-domain token counts; at step 75 rank 3's batch has an
# extra domain key so its tensor has 4 elements instead of 3.
set -u
R=/work/blind/r23; RUN=$R/runs/007_allreduce_shape_rank3; rm -rf $RUN; mkdir -p $RUN
cd $R/work
TORCH_DISTRIBUTED_DEBUG=DETAIL CHAOS=extra_domain@3@75 timeout 200 \
  /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 \
  $R/gen/train_lm.py --data-dir data/base --steps 300 --eval-every 100 --ckpt-every 0 \
  --domain-metrics --manual-allreduce --timeout 30 --log-style iso > $RUN/job.log 2>&1
echo rc=$?
