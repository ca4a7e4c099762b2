#!/bin/bash
# torchrun 4 procs, --max-restarts 1, per-rank files via --log-dir/--redirects 3; console kept as launcher.log
set -u
source /work/blind/r24/gen/common.sh
N=002_restart_torn_ckpt; W=$R/work/j002; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W/ckpt
cd $W
CKPT_DIR=$W/ckpt timeout 240 /work/blind/venv/bin/torchrun --nproc-per-node 4 --max-restarts 1 \
  --rdzv-backend c10d --rdzv-endpoint localhost:29102 --rdzv-id job002 \
  --log-dir $OUT/torchelastic --redirects 3 \
  $R/gen/s002.py > $OUT/launcher.log 2>&1
echo "rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
