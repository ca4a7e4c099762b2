#!/bin/bash
# torchrun 4 procs, PYTHONFAULTHANDLER=1; console kept.
set -u
source /work/blind/r24/gen/common.sh
N=013_dl_worker_segv; W=$R/work/j013; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
PYTHONFAULTHANDLER=1 timeout 150 $TORCHRUN --nproc-per-node 4 --max-restarts 0 --rdzv-backend c10d \
  --rdzv-endpoint localhost:29113 --rdzv-id job013 $R/gen/s013.py > $OUT/train.log 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
