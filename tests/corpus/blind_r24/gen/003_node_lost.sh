#!/bin/bash
# Two torchrun agents (2 nodes x 2 procs), c10d rendezvous, --max-restarts 1, join_timeout 25s.
# At step ~20 node 1 is lost: its agent and both workers are SIGKILLed at once.
set -u
source /work/blind/r24/gen/common.sh
N=003_node_lost; W=$R/work/j003; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
TR="$TORCHRUN --nnodes 2 --nproc-per-node 2 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint localhost:29103 --rdzv-id job003 --rdzv-conf join_timeout=25,last_call_timeout=5"
FAKE_HOST=node0 timeout 150 $TR $R/gen/s003.py > $OUT/node0.log 2>&1 &
P0=$!
sleep 1
FAKE_HOST=node1 $TR $R/gen/s003.py > $OUT/node1.log 2>&1 &
P1=$!
wait_for $OUT/node1.log '"step": 20,' 60
killtree KILL $P1
wait $P0; echo "node0 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
