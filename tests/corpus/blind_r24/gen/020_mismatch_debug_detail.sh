#!/bin/bash
# torchrun 4 procs, TORCH_DISTRIBUTED_DEBUG=DETAIL (no DDP in this script); console kept.
set -u
source /work/blind/r24/gen/common.sh
N=020_mismatch_debug_detail; W=$R/work/j020; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
TORCH_DISTRIBUTED_DEBUG=DETAIL timeout 150 $TORCHRUN --nproc-per-node 4 --max-restarts 0 --rdzv-backend c10d \
  --rdzv-endpoint localhost:29120 --rdzv-id job020 $R/gen/s020.py > $OUT/train.log 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
