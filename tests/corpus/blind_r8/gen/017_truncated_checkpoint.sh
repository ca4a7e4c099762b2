#!/bin/bash
R=/work/blind/r8/runs/017_truncated_checkpoint; rm -rf $R; mkdir -p $R
CK=/work/blind/r8/meta/017_ckpt; rm -rf $CK; mkdir -p $CK
# the previous (preempted) run: step_2000 complete, step_3000 torn mid-write, pointer already updated
/work/blind/venv/bin/python - <<PY
import sys, torch; sys.path.insert(0, "/work/blind/r8/gen")
import importlib.util
spec = importlib.util.spec_from_file_location("m", "/work/blind/r8/gen/017_truncated_checkpoint.py")
import torch.nn as nn
m = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
for s in (2000, 3000):
    torch.save({"model": m.state_dict(), "step": s}, f"$CK/step_{s}.pt")
import os
p = f"$CK/step_3000.pt"; n = os.path.getsize(p)
with open(p, "r+b") as f: f.truncate(int(n * 0.61))
open(f"$CK/latest", "w").write("step_3000.pt\n")
PY
cd $R; export OMP_NUM_THREADS=1 CKPT_DIR=$CK
timeout 90 /work/blind/venv/bin/python -m torch.distributed.run --standalone --nproc-per-node 3 --master-port 29917 \
  --log-dir $R/logs --redirects 1 /work/blind/r8/gen/017_truncated_checkpoint.py > $R/stderr-console.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/017.rc
