#!/bin/bash
# 023: two torchrun agents (node-a: 3 ranks, node-b: 1 rank = rank 3), --log-dir
# --redirects 3 --tee 3, collective timeout 1800 s. node-b's dataset-cache lock
# file is held by a stale process (flock), so rank 3 blocks at start-up after
# DDP init; ranks 0-2 block in the first forward's collective. Nothing errors.
# The user snapshots both nodes' consoles after ~100 s of no progress (the job
# is then killed by me, after the snapshot; the kill is not in the snapshot).
set -u
R=/work/blind/r23; RUN=$R/runs/023_hang_snapshot_rank3; rm -rf $RUN; mkdir -p $RUN
cd $R/work; mkdir -p cache/node-a cache/node-b; touch cache/node-a/.lock cache/node-b/.lock
/work/blind/venv/bin/python -c "
import fcntl,time
f=open('cache/node-b/.lock','a'); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(400)" &
HOLD=$!
COMMON="--nnodes 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:28231 --rdzv-id lm023 --max-restarts 0 --tee 3"
ARGS="--data-dir data/base --steps 2000 --eval-every 200 --ckpt-every 0 --timeout 1800"
timeout 300 /work/blind/venv/bin/torchrun $COMMON --nproc-per-node 3 --node-rank 0 $R/gen/train_lm.py $ARGS \
  --cache-lock cache/node-a/.lock > $R/work/023-node-a.full.log 2>&1 &
A=$!
sleep 2
timeout 300 /work/blind/venv/bin/torchrun $COMMON --nproc-per-node 1 --node-rank 1 $R/gen/train_lm.py $ARGS \
  --cache-lock cache/node-b/.lock > $R/work/023-node-b.full.log 2>&1 &
B=$!
sleep 100
cp $R/work/023-node-a.full.log $RUN/node-a.log; cp $R/work/023-node-b.full.log $RUN/node-b.log
date > $R/work/023-snapshot-time.txt
kill $A $B; sleep 5; kill $HOLD
wait
