#!/bin/bash
# Two torchrun agents x 2 procs. Node 1 runs in its own mount namespace where $SCRATCH is a 6 MB tmpfs
# already holding 4 MB of an old job's files. Node consoles kept (nodeK.out).
set -u
source /work/blind/r24/gen/common.sh
N=026_node1_scratch_full; W=$R/work/j026; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W/scratch; cd $W
TR="$TORCHRUN --nnodes 2 --nproc-per-node 2 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29126 --rdzv-id job026"
SCRATCH=$W/scratch timeout 150 $TR $R/gen/s026.py > $OUT/node0.out 2>&1 & P0=$!
sleep 1
SCRATCH=$W/scratch unshare -m bash -c "mount -t tmpfs -o size=6m scratch $W/scratch && head -c 4500000 /dev/urandom > $W/scratch/old_job_8812_shard.bin && exec timeout 150 $TR $R/gen/s026.py" > $OUT/node1.out 2>&1 & P1=$!
wait $P0; echo "node0 rc=$?"; wait $P1; echo "node1 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
