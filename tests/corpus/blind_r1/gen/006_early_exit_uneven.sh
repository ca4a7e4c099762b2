#!/usr/bin/env bash
# torchrun 3 ranks, no --log-dir. Shards are uneven: rank 2 has 4500 samples (141 batches),
# ranks 0/1 have 6400 (200 batches). Rank 2 finishes its loop, logs "epoch 0 finished",
# and exits 0; ranks 0 and 1 are left in the DDP all-reduce of step 142.
set -u
NAME=006_early_exit_uneven
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK/data"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python - <<'PYEOF'
import torch
for r, n in enumerate([6400, 6400, 4500]):
    g = torch.Generator().manual_seed(40 + r)
    x = torch.randn(n, 20, generator=g)
    y = torch.sin(x[:, :5]).sum(1, keepdim=True)
    torch.save({"x": x, "y": y}, f"data/shard_{r:02d}.pt")
PYEOF
export PYTHONUNBUFFERED=1
timeout 180 $PY/torchrun --nproc-per-node 3 --master-port 29606 train.py --data data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
