#!/usr/bin/env bash
# torchrun 3 ranks with --log-dir/--tee 3 under `ulimit -n 200`. Rank 0's shard was exported
# as 400 one-batch part files (ranks 1-2: 8 large files). The reader caches every open
# handle, so rank 0 runs out of file descriptors (EMFILE) around step ~180; ranks 1-2 lose
# their peer in the all-reduce.
set -u
NAME=016_emfile_handle_cache
R1=/work/blind/r1
PY=/work/blind/venv/bin
RUN=$R1/runs/$NAME
WORK=/tmp/blindwork/exp${NAME%%_*}
rm -rf "$RUN" "$WORK"; mkdir -p "$RUN" "$WORK/data"
cp $R1/gen/$NAME.py $WORK/train.py
cd $WORK
$PY/python - <<'PYEOF'
import os, torch
for r in range(3):
    os.makedirs(f"data/rank{r}", exist_ok=True)
    g = torch.Generator().manual_seed(1600 + r)
    n = 400 * 16
    x = torch.randn(n, 20, generator=g)
    y = x[:, ::5].sum(1, keepdim=True)
    rec = torch.cat([x, y], 1)
    parts = 400 if r == 0 else 8
    for i, chunk in enumerate(rec.chunk(parts)):
        with open(f"data/rank{r}/part-{i:05d}.bin", "wb") as f:
            f.write(chunk.numpy().tobytes())
PYEOF
export PYTHONUNBUFFERED=1
ulimit -n 200
timeout 180 $PY/torchrun --nproc-per-node 3 --master-port 29616 --log-dir $WORK/logs --tee 3 \
    train.py --data data 2>&1 | tee $RUN/console.log
echo "exit=${PIPESTATUS[0]}" >&2
cp -r $WORK/logs $RUN/logs
