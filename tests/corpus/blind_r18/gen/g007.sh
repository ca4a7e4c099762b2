#!/bin/bash
# two torchrun agents (--nnodes 2, node rank 0/1, same host). Node 1's agent runs under `ulimit -n 96`.
# Local rank 0 of each node pushes metrics and leaks one socket per push (kept in a list). On node 1 that is
# global rank 2: EMFILE ("Too many open files") mid-run. Node 0 (limit 20000) never hits it in this run.
source /work/blind/r18/gen/common.sh
newrun 007_metrics_socket_leak
export METRICS_PORT=23071
$PY $GEN/metrics_sink.py $METRICS_PORT & SINK=$!
sleep 1
$TORCHRUN --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 23007 --tee 3 $GEN/p007_metrics.py > node0.log 2>&1 &
A=$!
( ulimit -n 96; exec $TORCHRUN --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 23007 --tee 3 $GEN/p007_metrics.py ) > node1.log 2>&1 &
B=$!
wait $A; echo "node0 rc=$?"; wait $B; echo "node1 rc=$?"
kill $SINK
