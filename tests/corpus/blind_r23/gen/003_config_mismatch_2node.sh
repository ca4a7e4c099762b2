#!/bin/bash
# 003: two torchrun agents as two "nodes" (c10d rendezvous on 127.0.0.1:28031):
# node-a runs 3 ranks, node-b runs 1 rank. node-b's MODEL_CONFIG file is stale
# (vocab 1024 instead of 512), so its model has different parameter shapes.
set -u
R=/work/blind/r23; RUN=$R/runs/003_config_mismatch_2node; rm -rf $RUN; mkdir -p $RUN
cd $R/work
mkdir -p cfg/node-a cfg/node-b
echo '{"vocab": 512, "d_model": 64, "n_layer": 2, "n_head": 4}' > cfg/node-a/model.json
echo '{"vocab": 1024, "d_model": 64, "n_layer": 2, "n_head": 4}' > cfg/node-b/model.json
COMMON="--nnodes 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:28031 --rdzv-id lm003 --max-restarts 0"
ARGS="--data-dir data/base --steps 200 --eval-every 50 --ckpt-every 0 --timeout 30"
MODEL_CONFIG=cfg/node-a/model.json timeout 150 /work/blind/venv/bin/torchrun $COMMON --nproc-per-node 3 \
  --node-rank 0 $R/gen/train_lm.py $ARGS > $RUN/node-a.log 2>&1 &
sleep 2
MODEL_CONFIG=cfg/node-b/model.json timeout 150 /work/blind/venv/bin/torchrun $COMMON --nproc-per-node 1 \
  --node-rank 1 $R/gen/train_lm.py $ARGS > $RUN/node-b.log 2>&1 &
wait
