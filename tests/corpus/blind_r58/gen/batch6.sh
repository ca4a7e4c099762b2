#!/bin/bash
R=/work/blind/r58/gen/run.sh
# 058 "node 0" (agent + its 2 workers, store host) is SIGKILLed mid-training; logs of both nodes kept
$R 058 'setsid torchrun --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29558 $T --mode none --steps 300 --sleep 0.5 --fmt json > node0.log 2>&1 & P0=$!; sleep 1; torchrun --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29558 $T --mode none --steps 300 --sleep 0.5 --fmt json > node1.log 2>&1 & P1=$!; sleep 22; kill -9 -- -$P0; wait $P1'
