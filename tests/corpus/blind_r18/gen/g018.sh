#!/bin/bash
# two torchrun agents (2 "nodes" x 2). PROFILE_RANKS=1 asks global rank 1 to start a trace session at step 12;
# the trace plugin (trace_uploader) ships only in node 1's newer image (its PYTHONPATH), not on node 0.
# Rank 1 (node 0, local rank 1) dies with ModuleNotFoundError at step 12; the others lose their peer.
source /work/blind/r18/gen/common.sh
newrun 018_profiler_plugin_missing
export PROFILE_RANKS=1 TRACE_DIR=$WORK/traces
ARGS="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 23018"
$TORCHRUN $ARGS --node-rank 0 --redirects 3 --log-dir node0_logs $GEN/p018_profiled.py > node0_agent.log 2>&1 &
A=$!
PYTHONPATH=$GEN/sitepkgs_node1:$PYTHONPATH $TORCHRUN $ARGS --node-rank 1 --tee 3 $GEN/p018_profiled.py > node1_console.log 2>&1 &
B=$!
wait $A; echo "node0 rc=$?"; wait $B; echo "node1 rc=$?"
