#!/bin/bash
# Intended a healthy scale-up (torchrun --nnodes 1:2, 2 procs per node, --max-restarts 3; node 1 joins ~8 s
# after node 0 started training). Observed on this build: the scale-up re-rendezvous deadlocks and both agents time out. Consoles kept.
set -u
source /work/blind/r24/gen/common.sh
N=031_elastic_scaleup_stuck; W=$R/work/j031; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W/ckpt; cd $W
TR="$TORCHRUN --nnodes 1:2 --nproc-per-node 2 --max-restarts 3 --rdzv-backend c10d --rdzv-endpoint localhost:29133 --rdzv-id job031 --rdzv-conf last_call_timeout=2"
CKPT_DIR=$W/ckpt timeout 150 $TR $R/gen/s031.py > $OUT/node0.log 2>&1 & P0=$!
wait_for $OUT/node0.log "step 10 " 60
CKPT_DIR=$W/ckpt timeout 150 $TR $R/gen/s031.py > $OUT/node1.log 2>&1 & P1=$!
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
