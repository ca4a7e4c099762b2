#!/bin/bash
# One-.npy-per-sample dataset that caches open file handles and never closes them (leak).
# The job runs with `ulimit -n 256`. Ranks 0,2,3 have 192 sample files; rank 1's shard has
# 640 smaller files, so rank 1 hits EMFILE (Too many open files) during its first epoch.
. /work/blind/r15/gen/env.sh
R=021_torchrun_emfile_r1; D=$DATA/ds_021; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY - <<PYEOF
import numpy as np, os
rng = np.random.default_rng(5); w = rng.normal(size=(32, 10))
for r in range(4):
    d = f"$D/rank{r}/samples"; os.makedirs(d)
    for i in range(640 if r == 1 else 192):
        x = rng.normal(size=32).astype(np.float32)
        np.save(f"{d}/{i:06d}.npy", np.concatenate([x, [np.float32((x @ w).argmax())]]))
PYEOF
cd $RUNS/$R
ulimit -n 256
timeout 120 $TORCHRUN --nproc-per-node 4 --master-port 21121 $GEN/train.py --data-dir $D --sample-files --epochs 100 \
  --max-steps 30 --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
