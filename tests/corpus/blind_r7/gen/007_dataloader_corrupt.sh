#!/bin/bash
R=/work/blind/r7/runs/007_dataloader_corrupt; rm -rf $R; mkdir -p $R/chunks; cd $R
export OMP_NUM_THREADS=1 CHUNK_DIR=$R/chunks
/work/blind/venv/bin/python - <<'PY'
import torch, os
d = "/work/blind/r7/runs/007_dataloader_corrupt/chunks"
for c in range(60):
    torch.save({"x": torch.randn(8, 32), "y": torch.randint(0, 2, (8,))}, f"{d}/chunk_{c:04d}.pt")
# chunk 37 was truncated by an interrupted rsync  -> lands on rank 37 % 3 = 1, at its 12th file
p = f"{d}/chunk_0037.pt"; b = open(p, "rb").read(); open(p, "wb").write(b[: len(b) // 2])
PY
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29807 /work/blind/r7/gen/007_dataloader_corrupt.py > $R/run.log 2>&1
echo "exit=$?"
