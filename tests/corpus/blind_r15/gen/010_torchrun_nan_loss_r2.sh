#!/bin/bash
# Rank 2's chunk_001 contains one corrupted sample with features ~1e38 (unnormalised sensor
# values). At step 13 rank 2's forward overflows -> loss nan on rank 2 only; the NaN gradients
# are all-reduced, so from the next step every rank reports nan. The trainer aborts after 3
# consecutive non-finite losses (on every rank).
. /work/blind/r15/gen/env.sh
R=010_torchrun_nan_loss_r2; D=$DATA/ds_010; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 3
$PY -c "
import numpy as np; p='$D/rank2/chunk_001.npy'; a=np.load(p); a[200,:-1]=1.7e38; np.save(p,a)"
cd $RUNS/$R
timeout 120 $TORCHRUN --nproc-per-node 4 --master-port 21110 $GEN/train.py --data-dir $D --log-every 1 \
   --max-nonfinite 3 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
