#!/bin/bash
# Two torchrun agents (2 nodes x 2 procs). Node 1's environment puts a stale fused_ops build first
# on PYTHONPATH (undefined symbol on import); node 0 has the current build. --max-restarts 0.
set -u
source /work/blind/r24/gen/common.sh
N=004_node1_stale_ext; W=$R/work/j004; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
$R/gen/ext/build.sh
TR="$TORCHRUN --nnodes 2 --nproc-per-node 2 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29104 --rdzv-id job004"
PYTHONPATH=$R/work/ext/fused-2.1.0 timeout 150 $TR $R/gen/s004.py > $OUT/node0.log 2>&1 &
P0=$!
sleep 1
PYTHONPATH=$R/work/ext/fused-1.4.0 timeout 150 $TR $R/gen/s004.py > $OUT/node1.log 2>&1 &
P1=$!
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
