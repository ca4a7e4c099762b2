#!/bin/bash
# torchrun 4 procs with --tee 3 (console lines get torchrun's per-rank prefix); console kept.
set -u
source /work/blind/r24/gen/common.sh
N=010_p2p_skipped_send; W=$R/work/j010; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
timeout 150 $TORCHRUN --nproc-per-node 4 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29110 \
  --rdzv-id job010 --log-dir $W/tlogs --tee 3 $R/gen/s010.py > $OUT/job.out 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
