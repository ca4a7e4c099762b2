#!/bin/bash
# Two torchrun agents: node 0 (3 procs, ranks 0-2), node 1 (2 procs, ranks 3-4). Rank 4 spins in its sampler.
set -u
source /work/blind/r24/gen/common.sh
N=009_sampler_spin; W=$R/work/j009; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
TR="$TORCHRUN --nnodes 2 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29109 --rdzv-id job009"
FAKE_HOST=gpu-a01 timeout 150 $TR --nproc-per-node 3 $R/gen/s009.py > $OUT/gpu-a01.log 2>&1 &
P0=$!
sleep 1
FAKE_HOST=gpu-a02 timeout 150 $TR --nproc-per-node 2 $R/gen/s009.py > $OUT/gpu-a02.log 2>&1 &
P1=$!
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
