#!/bin/bash
# Three torchrun agents x 2 procs (ranks 0-5), c10d rendezvous. The app writes one log file per rank
# (logs/train_rankN.log); each node's torchrun console is kept as nodeK.console.
set -u
source /work/blind/r24/gen/common.sh
N=011_straggler_3nodes; W=$R/work/j011; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT/logs $W; cd $W
TR="$TORCHRUN --nnodes 3 --nproc-per-node 2 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29111 --rdzv-id job011"
for k in 0 1 2; do
  APP_LOG_DIR=$OUT/logs FAKE_HOST=node$k timeout 150 $TR $R/gen/s011.py > $OUT/node$k.console 2>&1 &
  eval P$k=$!; sleep 1
done
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"; wait $P2; echo "node2 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
