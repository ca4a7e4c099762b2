#!/bin/bash
# Three torchrun agents (--nnodes 3, 2 procs each), c10d rendezvous with join_timeout=20.
# Node 2's agent starts 35 s late (slow image pull); nodes 0/1 give up, then node 2 fails alone.
set -u
source /work/blind/r24/gen/common.sh
N=006_rdzv_late_node; W=$R/work/j006; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
TR="$TORCHRUN --nnodes 3 --nproc-per-node 2 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29106 --rdzv-id job006 --rdzv-conf join_timeout=20"
timeout 120 $TR $R/gen/s003.py > $OUT/node0.log 2>&1 &
P0=$!
sleep 2
timeout 120 $TR $R/gen/s003.py > $OUT/node1.log 2>&1 &
P1=$!
sleep 35
timeout 120 $TR $R/gen/s003.py > $OUT/node2.log 2>&1 &
P2=$!
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"; wait $P2; echo "node2 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
