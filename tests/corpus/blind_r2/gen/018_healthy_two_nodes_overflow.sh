#!/bin/bash
# Two torchrun agents, static rendezvous, --nnodes 2 --nproc-per-node 1. Node B starts 4 s before
# node A (the store host), so its store client logs connection-refused retries first. One shared console.
set -u
RUN=/work/blind/r2/runs/018_healthy_two_nodes_overflow
rm -rf $RUN; mkdir -p $RUN; cd $RUN
export OMP_NUM_THREADS=1
: > console.log
common="--nnodes 2 --nproc-per-node 1 --rdzv-backend static --master-addr 127.0.0.1 --master-port 29628 --max-restarts 0"
SIM_NODE=B /work/blind/venv/bin/torchrun $common --node-rank 1 /work/blind/r2/gen/018_healthy_two_nodes_overflow.py >> console.log 2>&1 &
B=$!
sleep 4
SIM_NODE=A /work/blind/venv/bin/torchrun $common --node-rank 0 /work/blind/r2/gen/018_healthy_two_nodes_overflow.py >> console.log 2>&1 &
A=$!
wait $A; echo "node A exit $?"; wait $B; echo "node B exit $?"
