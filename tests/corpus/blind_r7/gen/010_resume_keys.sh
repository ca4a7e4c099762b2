#!/bin/bash
R=/work/blind/r7/runs/010_resume_keys; rm -rf $R; mkdir -p $R/ckpt/step_000400; cd $R
export OMP_NUM_THREADS=1 CKPT_DIR=$R/ckpt
/work/blind/venv/bin/python - <<'PY'
import sys, torch, torch.nn as nn
sys.argv = ["x"]
exec(open("/work/blind/r7/gen/010_resume_keys.py").read().split("CK = ")[0].split("rank = ")[0])
src = open("/work/blind/r7/gen/010_resume_keys.py").read()
ns = {}; exec(src[src.index("class Net"):src.index("CK = ")], {"nn": nn, "torch": torch}, ns)
Net = ns["Net"]
for r in range(3):
    sd = Net().state_dict()
    if r == 1:  # this rank's file was re-saved by an eval script from the DDP wrapper -> "module." prefix
        sd = {"module." + k: v for k, v in sd.items()}
    torch.save({"model": sd, "step": 400}, f"/work/blind/r7/runs/010_resume_keys/ckpt/step_000400/rank_{r}.pt")
PY
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29810 --log-dir $R/elastic_logs --tee 3 \
   /work/blind/r7/gen/010_resume_keys.py > $R/console.log 2>&1
echo "exit=$?"
