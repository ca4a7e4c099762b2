#!/bin/bash
# torchrun 3 procs, per-rank files via --log-dir/--redirects 3 plus torchrun console (console.log in the same dir).
set -u
source /work/blind/r24/gen/common.sh
N=021_mismatch_silent; W=$R/work/j021; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
timeout 150 $TORCHRUN --nproc-per-node 3 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29121 \
  --rdzv-id job021 --log-dir $OUT/logs --redirects 3 $R/gen/s021.py > $OUT/console.log 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
