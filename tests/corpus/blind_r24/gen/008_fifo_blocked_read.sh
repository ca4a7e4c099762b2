#!/bin/bash
# torchrun 3 procs, per-rank files via --log-dir/--redirects 3 (what the user hands over: the log dir).
# rank 1's shard_001.bin is a named pipe with no writer.
set -u
source /work/blind/r24/gen/common.sh
N=008_fifo_blocked_read; W=$R/work/j008; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT/logs $W/data; cd $W
$PY - <<PYEOF
import torch, os
for r in range(3):
    d = f"$W/data/rank{r}"; os.makedirs(d)
    for s in range(3):
        p = f"{d}/shard_{s:03d}.bin"
        if r == 1 and s == 1:
            os.mkfifo(p); continue
        g = torch.Generator().manual_seed(r * 10 + s)
        x = torch.randn(160, 32, generator=g); y = x.sum(1, keepdim=True) * 0.1
        open(p, "wb").write(torch.cat([x, y], 1).numpy().tobytes())
PYEOF
DATA_DIR=$W/data timeout 150 $TORCHRUN --nproc-per-node 3 --max-restarts 0 \
  --rdzv-backend c10d --rdzv-endpoint localhost:29108 --rdzv-id job008 \
  --log-dir $OUT/logs --redirects 3 $R/gen/s008.py > $OUT/logs/torchrun.log 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
