#!/bin/bash
# 008: two torchrun agents (simulated nodes) with c10d rendezvous; node A runs 3 procs, node B 1 proc.
# Node B's config file was truncated (partial copy) -> json.JSONDecodeError on its only rank.
R=/work/blind/r17/runs/008_node_config_truncated_json; rm -rf $R; mkdir -p $R; cd $R
C=/work/blind/r17/mnt/008cfg; rm -rf $C; mkdir -p $C/nodeA $C/nodeB
printf '{"optim": {"lr": 0.05, "momentum": 0.9}, "data": {"root": "/data/x"}}\n' > $C/nodeA/run.json
printf '{"optim": {"lr": 0.05, "momentum": 0.9}, "data": {"ro' > $C/nodeB/run.json
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15
RDZV="--nnodes 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:22081 --rdzv-id job8"
NODE_CFG=$C/nodeA/run.json /work/blind/venv/bin/torchrun $RDZV --nproc-per-node 3 /work/blind/r17/gen/cfg_train.py > node-a.log 2>&1 &
A=$!
sleep 3
NODE_CFG=$C/nodeB/run.json /work/blind/venv/bin/torchrun $RDZV --nproc-per-node 1 /work/blind/r17/gen/cfg_train.py > node-b.log 2>&1 &
B=$!
wait $A; echo "A exit $?"; wait $B; echo "B exit $?"
rm -rf $C
