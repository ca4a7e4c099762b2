#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=013_inf_in_features; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
COMMON="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:24013 --rdzv-id job013"
ARGS="--steps 80 --fail nan --fail-rank 3 --fail-step 37 --timeout 60 --run-id $RUN --fmt json"
$TORCHRUN $COMMON --log-dir $OUT/nodeA_logs --tee 3 $G/train.py $ARGS > $OUT/nodeA_console.txt 2>&1 &
A=$!
sleep 1
$TORCHRUN $COMMON --log-dir $OUT/nodeB_logs --tee 3 $G/train.py $ARGS > $OUT/nodeB_console.txt 2>&1 &
B=$!
wait $A; echo "A=$?"; wait $B; echo "B=$?"
