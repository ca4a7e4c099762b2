#!/bin/bash
# torchrun 4 procs; console kept.
set -u
source /work/blind/r24/gen/common.sh
N=019_uneven_shard_exit0; W=$R/work/j019; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
timeout 150 $TORCHRUN --nproc-per-node 4 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29119 \
  --rdzv-id job019 $R/gen/s019.py > $OUT/output.log 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
