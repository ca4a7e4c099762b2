#!/bin/bash
# Two torchrun agents: node 0 with 3 procs (ranks 0-2, ulimit -n 20000), node 1 with 1 proc (rank 3)
# started from a shell with `ulimit -n 256`. DataLoader workers share tensors by fd; rank 3 hits EMFILE.
set -u
source /work/blind/r24/gen/common.sh
N=005_node1_ulimit_emfile; W=$R/work/j005; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
TR="$TORCHRUN --nnodes 2 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29105 --rdzv-id job005"
timeout 150 $TR --nproc-per-node 3 $R/gen/s005.py > $OUT/node0.log 2>&1 &
P0=$!
sleep 1
bash -c "ulimit -n 256; exec timeout 150 $TR --nproc-per-node 1 $R/gen/s005.py" > $OUT/node1.log 2>&1 &
P1=$!
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
