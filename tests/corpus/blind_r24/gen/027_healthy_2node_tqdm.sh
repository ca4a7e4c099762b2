#!/bin/bash
# Healthy: two torchrun agents x 2 procs, c10d rendezvous, completes. Node consoles kept.
set -u
source /work/blind/r24/gen/common.sh
N=027_healthy_2node_tqdm; W=$R/work/j027; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
TR="$TORCHRUN --nnodes 2 --nproc-per-node 2 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint localhost:29127 --rdzv-id job027"
timeout 150 $TR $R/gen/s027.py > $OUT/node0.log 2>&1 & P0=$!
sleep 1
timeout 150 $TR $R/gen/s027.py > $OUT/node1.log 2>&1 & P1=$!
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
