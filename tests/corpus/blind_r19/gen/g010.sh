#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=010_ckpt_lock_wait; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN/ckpt; rm -rf $OUT/* $W/$RUN/ckpt/*
cd $W/$RUN
# a stale writer from a previous job still holds the checkpoint lock
flock $W/$RUN/ckpt/.ckpt.lock sleep 400 &
LOCKPID=$!
COMMON="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:24010 --rdzv-id job010 --tee 3"
ARGS="--steps 80 --fail flock_hang --fail-rank 1 --fail-step 30 --ckpt-every 10 --ckpt-dir $W/$RUN/ckpt/rank{rank} --timeout 30 --run-id $RUN --fmt plain"
$TORCHRUN $COMMON $G/train.py $ARGS > $OUT/node0_torchrun.log 2>&1 &
A=$!
sleep 1
$TORCHRUN $COMMON $G/train.py $ARGS > $OUT/node1_torchrun.log 2>&1 &
B=$!
wait $A; echo "A=$?"; wait $B; echo "B=$?"
kill $LOCKPID
