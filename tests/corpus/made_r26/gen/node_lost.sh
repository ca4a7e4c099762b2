#!/bin/bash
# A node lost mid-training: two torchrun agents (c10d rendezvous, 2 workers each, --max-restarts 1) on one
# machine stand for two nodes; after ~20 s node 1's agent and both its workers are SIGKILLed at once, as when the
# machine dies. Node 0's workers lose their peer, its agent restarts them and waits at the re-rendezvous for
# node 1 until the join timeout. Usage: node_lost.sh OUTDIR (needs torch; port 33110 free).
set -u
out=$1; mkdir -p "$out"; here=$(cd "$(dirname "$0")" && pwd)
common=(--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:33110 --rdzv-id nodelost
        --max-restarts 1 --rdzv-conf join_timeout=20,last_call_timeout=1 --monitor-interval 1)
STEPS=100000 torchrun "${common[@]}" "$here/train_node.py" > "$out/node0.log" 2>&1 &
a0=$!
sleep 1
STEPS=100000 torchrun "${common[@]}" "$here/train_node.py" > "$out/node1.log" 2>&1 &
a1=$!
sleep 20
workers=$(pgrep -P $a1)
kill -9 $a1 $workers   # the whole "node": agent and workers at once
wait $a0
echo "node0 agent exit: $?"
