#!/bin/bash
# torchrun 3 procs, --max-restarts 1; rank 1 hits inf sample at step 7 both attempts.
set -u
source /work/blind/r24/gen/common.sh
N=001_nan_recurs; W=$R/work/j001; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W/ckpt
cd $W
CKPT_DIR=$W/ckpt timeout 180 /work/blind/venv/bin/torchrun --nproc-per-node 3 --max-restarts 1 \
  --rdzv-backend c10d --rdzv-endpoint localhost:29101 --rdzv-id job001 \
  $R/gen/s001.py > $OUT/train.log 2>&1
echo "rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
