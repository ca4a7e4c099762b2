#!/bin/bash
# Intended as a healthy recovered restart, but it FAILED: torchrun --max-restarts=2, 4 workers: in attempt 0 rank 3 hits a transient
# ConnectionResetError; the agent restarts the worker group and attempt 1 completes.
NAME=030_restart_stale_gloo_peers; source /work/blind/r16/gen/common.sh
CRASH_ONCE=3 MARKER=/tmp/r16_030_marker STEPS=40 \
  $TORCHRUN --nproc-per-node 4 --max-restarts 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:21030 \
  $GEN/healthy_train.py > train.log 2>&1
echo "torchrun exit code $?" >> train.log
rm -f /tmp/r16_030_marker
