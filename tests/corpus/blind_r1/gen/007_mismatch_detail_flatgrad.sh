#!/usr/bin/env bash
# torchrun 4 ranks, TORCH_DISTRIBUTED_DEBUG=DETAIL (no DDP: DDP's constructor segfaults with
# DETAIL in this build). Hand-rolled flat-gradient all_reduce. On rank 3 the batch of step 93
# has no flagged samples, so aux_head gets no grad and rank 3's flat gradient is 260 elements
# shorter -> all_reduce with a different shape than ranks 0-2.
set -u
NAME=007_mismatch_detail_flatgrad
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
    g = torch.Generator().manual_seed(90 + r)
    n = 200 * 32
    x = torch.randn(n, 16, generator=g)
    y = x[:, :3].prod(1, keepdim=True)
    flag = torch.rand(n, generator=g) < 0.15
    flag[::16] = True            # at least two flagged samples per batch ...
    if r == 3:
        flag[92 * 32:93 * 32] = False   # ... except rank 3's batch of step 93
    aux = torch.randint(0, 4, (n,), generator=g)
    torch.save({"x": x, "y": y, "flag": flag, "aux": aux}, f"data/train_{r}.pt")
PYEOF
export PYTHONUNBUFFERED=1 TORCH_DISTRIBUTED_DEBUG=DETAIL
timeout 180 $PY/torchrun --nproc-per-node 4 --master-port 29607 train.py --data data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
