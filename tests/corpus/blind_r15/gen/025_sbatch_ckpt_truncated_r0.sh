#!/bin/bash
# The previous job was killed while writing its last checkpoint: ckpt_step01500.pt is a torn
# (truncated) zip. The requeued job resumes from the newest file; rank 0 fails in torch.load.
. /work/blind/r15/gen/env.sh
R=025_sbatch_ckpt_truncated_r0; D=$DATA/ds_025; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R $D/ckpt
$PY $GEN/make_data.py $D --ranks 3 --chunks 2
$PY - <<PYEOF
import sys, torch, os; sys.path.insert(0, "$GEN"); import train
m = train.Net(32, 128, 10); opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9)
torch.save({"model": m.state_dict(), "optim": opt.state_dict(), "step": 1400}, "$D/ckpt/ckpt_step01400.pt")
torch.save({"model": m.state_dict(), "optim": opt.state_dict(), "step": 1500}, "$D/ckpt/ckpt_step01500.pt")
os.truncate("$D/ckpt/ckpt_step01500.pt", 70000)
PYEOF
touch -d '-5 min' $D/ckpt/ckpt_step01400.pt
cd $RUNS/$R
timeout 200 sbatch --wait $GEN/025_job.sbatch
echo "rc=$?"
