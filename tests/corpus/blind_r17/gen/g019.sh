#!/bin/bash
# 019: torchrun --redirects 3 --log-dir (console has only launcher output), 3 ranks. Resume: optim_rank1.pt is a
# leftover from an older run whose optimizer had one param group with fewer params -> ValueError on rank 1.
R=/work/blind/r17/runs/019_resume_optimizer_shard_stale; rm -rf $R; mkdir -p $R; cd $R
C=/work/blind/r17/mnt/019ck; rm -rf $C; mkdir -p $C
PYTHONPATH=/work/blind/r17/gen /work/blind/venv/bin/python - <<PY
import torch
from common import Net
n = Net(); torch.save(n.state_dict(), "$C/model.pt")
for r in range(3):
    o = torch.optim.AdamW(n.parameters(), lr=1e-3)
    if r == 1:
        o = torch.optim.AdamW(list(n.fc1.parameters()) + list(n.fc2.parameters()), lr=1e-3)
    loss = n(torch.randn(4, 32)).sum(); loss.backward(); o.step()
    torch.save(o.state_dict(), "$C/optim_rank%d.pt" % r)
PY
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15 CKPT_DIR=$C
/work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 22191 --redirects 3 --log-dir $R/tr_logs /work/blind/r17/gen/resume_train.py > stdout_stderr.txt 2>&1
echo "exit=$?"
rm -rf $C
