#!/bin/bash
# torchrun 3 procs with --redirects 3 (worker output only in files the user did not attach);
# the run dir holds only torchrun's console.
set -u
source /work/blind/r24/gen/common.sh
N=018_launcher_only_keyerror; W=$R/work/j018; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
timeout 150 $TORCHRUN --nproc-per-node 3 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29118 \
  --rdzv-id job018 --log-dir $W/worker_logs --redirects 3 $R/gen/s018.py > $OUT/torchrun.txt 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
