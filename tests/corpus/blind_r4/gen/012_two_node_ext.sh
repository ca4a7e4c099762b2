#!/bin/bash
# two "nodes" (torchrun agents) on localhost; node B has a stale fused_ops build on its PYTHONPATH
D=/work/blind/r4/runs/012_two_node_ext; mkdir -p $D; cd $D
timeout 90 /work/blind/venv/bin/torchrun --nnodes 2 --nproc_per_node 2 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:29721 --rdzv_id ext-3 /work/blind/r4/gen/012_two_node_ext.py > nodeA.log 2>&1 &
sleep 2
PYTHONPATH=/tmp/r4_ext timeout 90 /work/blind/venv/bin/torchrun --nnodes 2 --nproc_per_node 1 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:29721 --rdzv_id ext-3 /work/blind/r4/gen/012_two_node_ext.py > nodeB.log 2>&1 &
wait; echo done >&2
