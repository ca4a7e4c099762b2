#!/bin/bash
source /work/blind/venv/bin/activate
D=/work/blind/r21/runs/015_two_node_bringup; rm -rf $D; mkdir -p $D; cd $D
export STEPS=20 LOGFMT=plain PG_TIMEOUT=30
torchrun --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:26415 --rdzv-id job15 --rdzv-conf join_timeout=30 /work/blind/r21/gen/train.py > node0_console.log 2>&1 &
A=$!
sleep 2
torchrun --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint 10.255.255.1:26415 --rdzv-id job15 --rdzv-conf join_timeout=30 /work/blind/r21/gen/train.py > node1_console.log 2>&1 &
B=$!
wait $A; echo "node0 rc=$?"; wait $B; echo "node1 rc=$?"
