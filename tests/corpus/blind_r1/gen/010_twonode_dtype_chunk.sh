#!/usr/bin/env bash
# Two torchrun agents on this machine simulating 2 nodes x 2 procs (c10d rendezvous).
# The data chunk for global rank 3 covering steps 101-150 was written as float64, so rank 3
# (node 1, local rank 1) raises a dtype error in its first Linear at step 101; ranks 0-2
# lose their peer. Each agent's console is kept separately.
set -u
NAME=010_twonode_dtype_chunk
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK/data"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python - <<'PYEOF'
import os, torch
for r in range(4):
    os.makedirs(f"data/rank_{r:03d}", exist_ok=True)
    g = torch.Generator().manual_seed(700 + r)
    for c in range(5):
        x = torch.randn(50 * 32, 24, generator=g, dtype=torch.float64)
        y = (x[:, :8].mean(1, keepdim=True) > 0).double()
        if not (r == 3 and c == 2):
            x, y = x.float(), y.float()
        torch.save({"features": x, "target": y}, f"data/rank_{r:03d}/chunk_{c:03d}.pt")
PYEOF
export PYTHONUNBUFFERED=1
COMMON="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29710 --rdzv-id job-mlp-0410 --max-restarts 0"
timeout 180 $PY/torchrun $COMMON --node-rank 0 train.py --data $WORK/data > $RUN/console_node0.log 2>&1 &
P0=$!
sleep 3
timeout 180 $PY/torchrun $COMMON --node-rank 1 train.py --data $WORK/data > $RUN/console_node1.log 2>&1 &
P1=$!
wait $P0; echo "node0 exit=$?" >&2
wait $P1; echo "node1 exit=$?" >&2
