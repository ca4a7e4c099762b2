#!/bin/bash
# torchrun 3 procs. The job runs without DAC-override capabilities (like an unprivileged user);
# ckpt/shards/rank1 is a 0755 directory owned by another user (uid 1001) left from an earlier run.
set -u
source /work/blind/r24/gen/common.sh
N=015_ckpt_thread_eacces; W=$R/work/j015; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W/ckpt/shards; cd $W
mkdir -p $W/ckpt/shards/rank1 && chown 1001:1001 $W/ckpt/shards/rank1 && chmod 755 $W/ckpt/shards/rank1
CKPT_DIR=$W/ckpt timeout 150 setpriv --bounding-set=-dac_override,-dac_read_search,-fowner \
  $TORCHRUN --nproc-per-node 3 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29115 \
  --rdzv-id job015 $R/gen/s015.py > $OUT/train.log 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
