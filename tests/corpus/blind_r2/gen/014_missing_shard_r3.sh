#!/bin/bash
# Two torchrun agents (--nnodes 2 --nproc-per-node 2, c10d rendezvous) simulating two nodes.
# Each node's console is captured separately: node A -> console.log, node B -> node1_console.log.
set -u
RUN=/work/blind/r2/runs/014_missing_shard_r3; D=/work/blind/r2/data/014/tokenized
rm -rf $RUN /work/blind/r2/data/014; mkdir -p $RUN; cd $RUN
/work/blind/venv/bin/python - <<'PY'
import os, torch
D = "/work/blind/r2/data/014/tokenized"
for e in range(3):
    os.makedirs(f"{D}/epoch{e}", exist_ok=True)
    for r in range(4):
        if e == 1 and r == 3:
            continue   # missing upload
        torch.save(torch.randint(0, 100, (800,)), f"{D}/epoch{e}/tokens-{r:05d}-of-00004.pt")
PY
export OMP_NUM_THREADS=1
common="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29624 --rdzv-id job014 --max-restarts 0"
/work/blind/venv/bin/torchrun $common /work/blind/r2/gen/014_missing_shard_r3.py > console.log 2>&1 &
A=$!
sleep 3
/work/blind/venv/bin/torchrun $common /work/blind/r2/gen/014_missing_shard_r3.py > node1_console.log 2>&1 &
B=$!
wait $A; echo "node A exit $?"; wait $B; echo "node B exit $?"
