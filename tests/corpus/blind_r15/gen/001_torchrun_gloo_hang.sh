#!/bin/bash
# rank 2's second data chunk sits on a "network share" that never delivers: it is a FIFO
# with no writer, so open() blocks forever. Ranks 0,1,3 wait in DDP's allreduce until the
# 15 s gloo timeout fires.
. /work/blind/r15/gen/env.sh
R=001_torchrun_gloo_hang; D=$DATA/ds_001; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 3
rm $D/rank2/chunk_001.npy && mkfifo $D/rank2/chunk_001.npy
cd $RUNS/$R
timeout 120 $TORCHRUN --nproc-per-node 4 --master-port 21101 $GEN/train.py \
  --data-dir $D --pg-timeout 15 --log-every 5 --step-sleep 0.05 > console.log 2>&1
echo "rc=$?"
