#!/bin/bash
# 024: two torchrun agents (static rendezvous, --node-rank 0/1), 2 procs each, each with --log-dir --tee 3.
# Node 1's image lacks the `fastshard` module (node 0 has it on PYTHONPATH). Only the last local rank of each node
# imports it, so on node 1 global rank 3 fails with ModuleNotFoundError at step 3.
R=/work/blind/r17/runs/024_node_missing_compiled_module; rm -rf $R; mkdir -p $R; cd $R
export PG_TIMEOUT=15
COMMON="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 22241"
PYTHONPATH=/work/blind/r17/gen:/work/blind/r17/gen/site_nodeA /work/blind/venv/bin/torchrun $COMMON --node-rank 0 --log-dir $R/node0_logs --tee 3 /work/blind/r17/gen/fast_prefetch_train.py > node0_console.log 2>&1 &
PYTHONPATH=/work/blind/r17/gen /work/blind/venv/bin/torchrun $COMMON --node-rank 1 --log-dir $R/node1_logs --tee 3 /work/blind/r17/gen/fast_prefetch_train.py > node1_console.log 2>&1 &
wait
