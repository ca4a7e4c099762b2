#!/bin/bash
# torchrun 4 procs; Flight Recorder on (TORCH_FR_BUFFER_SIZE), dumps written by the script's stall watchdog.
set -u
source /work/blind/r24/gen/common.sh
N=007_lock_deadlock; W=$R/work/j007; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT/fr $W; cd $W
TORCH_FR_BUFFER_SIZE=2000 TORCH_FR_DUMP_TEMP_FILE=$OUT/fr/fr_trace_rank_ timeout 150 $TORCHRUN --nproc-per-node 4 --max-restarts 0 \
  --rdzv-backend c10d --rdzv-endpoint localhost:29107 --rdzv-id job007 $R/gen/s007.py > $OUT/console.log 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
