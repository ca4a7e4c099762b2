#!/bin/bash
# HEALTHY. two torchrun agents (2 "nodes" x 2), JSON-line logs. fp16 autocast + GradScaler with a high initial
# scale: 3 early steps (1, 2, 5) overflow and are skipped ("gradient overflow ... loss scale 1048576 -> 524288"), then
# the scale settles and training finishes; metric eval_error_rate. Both agents exit 0.
source /work/blind/r18/gen/common.sh
newrun 032_healthy_fp16_warmup_overflow
ARGS="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 23032"
$TORCHRUN $ARGS --node-rank 0 --tee 3 $GEN/p032_amp.py > node0.jsonl.log 2>&1 &
A=$!
$TORCHRUN $ARGS --node-rank 1 --tee 3 $GEN/p032_amp.py > node1.jsonl.log 2>&1 &
B=$!
wait $A; echo "node0 rc=$?"; wait $B; echo "node1 rc=$?"
