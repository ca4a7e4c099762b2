#!/bin/bash
# HEALTHY. torchrun 2 ranks with TORCH_CPP_LOG_LEVEL=INFO (c10d chatter), resume from a
# compatible checkpoint, and a metrics push to an endpoint that is down: three logged
# ConnectionRefusedError tracebacks (caught, retried, then given up). Training completes, rc 0.
. /work/blind/r15/gen/env.sh
R=026_torchrun_healthy_noisy; D=$DATA/ds_026; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 2 --chunks 3
$PY - <<PYEOF
import sys, torch; sys.path.insert(0, "$GEN"); import train
m = train.Net(32, 128, 10); opt = torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9)
torch.save({"model": m.state_dict(), "optim": opt.state_dict(), "step": 300}, "$D/ckpt_step00300.pt")
PYEOF
cd $RUNS/$R
export TORCH_CPP_LOG_LEVEL=INFO
timeout 120 $TORCHRUN --nproc-per-node 2 --master-port 21126 $GEN/train.py --data-dir $D --resume $D/ckpt_step00300.pt \
  --metrics-endpoint 127.0.0.1:21998 --epochs 2 --log-every 5 --pg-timeout 30 > console.log 2>&1
echo "rc=$?"
