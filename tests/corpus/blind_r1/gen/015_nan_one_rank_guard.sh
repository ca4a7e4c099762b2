#!/usr/bin/env bash
# torchrun 4 ranks, no --log-dir. Rank 1's feature file (float64) has a value 1e39 in the
# batch of step 173; after the cast to float32 it is inf, so rank 1's local loss is inf/nan.
# The guard checks the all-reduced (global) loss, so EVERY rank raises FloatingPointError at
# step 173; only rank 1 reports a non-finite local loss.
set -u
NAME=015_nan_one_rank_guard
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK/data"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python - <<'PYEOF'
import torch
for r in range(4):
    g = torch.Generator().manual_seed(1500 + r)
    n = 250 * 32
    x = torch.randn(n, 16, generator=g, dtype=torch.float64)
    y = x[:, 4:8].sum(1, keepdim=True)
    if r == 1:
        x[172 * 32 + 7, 11] = 1e39
    torch.save({"x": x, "y": y}, f"data/features_{r}.pt")
PYEOF
export PYTHONUNBUFFERED=1
timeout 180 $PY/torchrun --nproc-per-node 4 --master-port 29615 train.py --data data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
