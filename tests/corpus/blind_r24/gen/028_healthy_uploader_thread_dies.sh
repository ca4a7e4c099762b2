#!/bin/bash
# Healthy: torchrun 3 procs; nothing listens on the metrics port 29128. Console kept.
set -u
source /work/blind/r24/gen/common.sh
N=028_healthy_uploader_thread_dies; W=$R/work/j028; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
timeout 150 $TORCHRUN --nproc-per-node 3 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29129 \
  --rdzv-id job028 $R/gen/s028.py > $OUT/run.log 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
