#!/bin/bash
# two torchrun agents (c10d rendezvous, --nnodes 2, same host as two "nodes"). The node-1 launch line was
# copy-pasted from yesterday's job and still carries the old --rdzv-id, so each agent waits alone in its own
# rendezvous for a second node; both hit the 30 s join timeout (RendezvousTimeoutError). No rank ever starts.
source /work/blind/r18/gen/common.sh
newrun 017_rdzv_id_mismatch
COMMON="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:23017 --rdzv-conf join_timeout=30"
$TORCHRUN $COMMON --rdzv-id ft-20261205-a $GEN/p017_pretrain.py > node0.out 2>&1 &
A=$!
sleep 2
$TORCHRUN $COMMON --rdzv-id ft-20261204-a $GEN/p017_pretrain.py > node1.out 2>&1 &
B=$!
wait $A; echo "node0 rc=$?"; wait $B; echo "node1 rc=$?"
