#!/usr/bin/env bash
# torchrun 3 ranks with --log-dir and --redirects 3 (worker output only in per-rank files,
# the console has only the launcher). Rank 1's offset index has one corrupted entry
# (2**44) in the batch of step 77, so the zero-copy ctypes.memmove reads unmapped memory
# and rank 1 dies with SIGSEGV (no Python traceback); ranks 0 and 2 lose their peer.
set -u
NAME=005_segfault_mmap_reader
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK/data"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python - <<'PYEOF'
import torch
for r in range(3):
    g = torch.Generator().manual_seed(5 + r)
    n = 200 * 32
    x = torch.randn(n, 24, generator=g)
    y = (x[:, :6].sum(1, keepdim=True)).tanh()
    rec = torch.cat([x, y], 1).contiguous()
    with open(f"data/part-{r}.rec", "wb") as f:
        f.write(rec.numpy().tobytes())
    idx = torch.randperm(n, generator=g) * 100
    if r == 1:
        idx[76 * 32 + 3] = 2 ** 44
    torch.save(idx, f"data/part-{r}.idx")
PYEOF
timeout 180 $PY/torchrun --nproc-per-node 3 --master-port 29605 --log-dir $WORK/logs --redirects 3 \
    train.py --data data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
cp -r $WORK/logs $RUN/logs
