#!/bin/bash
# Resuming from a checkpoint written by the hidden=256 config while the current config uses
# hidden=128. Rank 0 loads it (then DDP broadcasts from rank 0): load_state_dict size mismatch
# on rank 0; ranks 1-3 are waiting in DDP's constructor collectives.
. /work/blind/r15/gen/env.sh
R=015_torchrun_resume_shape_mismatch_r0; D=$DATA/ds_015; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 2
$PY - <<PYEOF
import sys, torch; sys.path.insert(0, "$GEN"); import train
m = train.Net(32, 256, 10); opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9)
torch.save({"model": m.state_dict(), "optim": opt.state_dict(), "step": 1200}, "$D/ckpt_step01200.pt")
PYEOF
cd $RUNS/$R
timeout 120 $TORCHRUN --nproc-per-node 4 --master-port 21115 $GEN/train.py --data-dir $D --resume $D/ckpt_step01200.pt \
  --hidden 128 --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
