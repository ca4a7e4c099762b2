#!/bin/bash
# torchrun 4 procs with --tee 3 (console keeps torchrun's [defaultN]: prefixes). Before launch, a leftover
# "uploader" process from the previous job holds flock on ckpt/rank3.lock (it is killed after the run).
set -u
source /work/blind/r24/gen/common.sh
N=016_ckpt_writer_lock_hang; W=$R/work/j016; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W/ckpt; cd $W
$PY -c "
import fcntl, time, sys
f = open('$W/ckpt/rank3.lock', 'a+'); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(400)" &
HOLDER=$!
sleep 1
CKPT_DIR=$W/ckpt timeout 150 $TORCHRUN --nproc-per-node 4 --max-restarts 0 --rdzv-backend c10d \
  --rdzv-endpoint localhost:29116 --rdzv-id job016 --log-dir $W/tlogs --tee 3 $R/gen/s016.py > $OUT/console.txt 2>&1
echo rc=$?
kill $HOLDER
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
