#!/bin/bash
# Two torchrun agents: worker-0 (2 procs, ranks 0-1) and worker-1 (1 proc, rank 2). worker-1 runs in its
# own mount namespace with a 4 MB tmpfs on /dev/shm (container started without a shm size).
set -u
source /work/blind/r24/gen/common.sh
N=014_node1_small_shm; W=$R/work/j014; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
TR="$TORCHRUN --nnodes 2 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29114 --rdzv-id job014"
timeout 150 $TR --nproc-per-node 2 $R/gen/s014.py > $OUT/trainer-worker-0.log 2>&1 &
P0=$!
sleep 1
unshare -m bash -c "mount -t tmpfs -o size=4m shm /dev/shm && exec timeout 150 $TR --nproc-per-node 1 $R/gen/s014.py" > $OUT/trainer-worker-1.log 2>&1 &
P1=$!
wait $P0; echo "w0 rc=$?"; wait $P1; echo "w1 rc=$?"
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
