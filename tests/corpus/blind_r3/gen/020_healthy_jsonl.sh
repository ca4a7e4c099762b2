#!/bin/bash
# two torchrun agents (static, --nnodes 2) sharing one console; healthy
R=/work/blind/r3/runs/020_healthy_jsonl; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job020; mkdir -p $J; cp /work/blind/r3/gen/020_healthy_jsonl.py $J/train_amp.py
cd $J
TR=/work/blind/venv/bin/torchrun
COMMON="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29520"
: > $R/console.log
CKPT=$J/ckpt $TR $COMMON --node-rank 0 train_amp.py >> $R/console.log 2>&1 &
P0=$!
CKPT=$J/ckpt $TR $COMMON --node-rank 1 train_amp.py >> $R/console.log 2>&1 &
P1=$!
wait $P0; echo "node0 exit $?"; wait $P1; echo "node1 exit $?"
