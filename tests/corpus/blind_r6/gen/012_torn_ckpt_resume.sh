#!/bin/bash
R=/work/blind/r6/runs/012_torn_ckpt_resume; rm -rf $R; mkdir -p $R/ckpt/step_500
export OMP_NUM_THREADS=1 RESUME_FROM=$R/ckpt/step_500
/work/blind/venv/bin/python - <<PY
import torch, torch.nn as nn, os
for r in range(3):
    torch.manual_seed(r)
    m = nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 128))
    torch.save({"model": m.state_dict(), "step": 500}, os.path.join("$RESUME_FROM", f"model_rank{r}.pt"))
PY
# previous job was preempted while writing rank 1's shard: keep the first 60%
s=$(stat -c %s $RESUME_FROM/model_rank1.pt); truncate -s $((s*6/10)) $RESUME_FROM/model_rank1.pt
cd $R
timeout 85 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29712 --log-dir $R/torchrun_logs --tee 3 \
  --local-ranks-filter 0 /work/blind/r6/gen/012_torn_ckpt_resume.py > $R/console.log 2>&1
echo "exit=$?" > $R/exit_code
rm -rf $R/ckpt
