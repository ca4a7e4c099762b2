#!/bin/bash
# Per-class metric: counts = torch.bincount(y); dist.all_reduce(counts) every 10 steps.
# bincount's length depends on the largest label in the local batch. Rank 3's chunk_001 has no
# class-9 samples (its shard was filtered), so at step 10 rank 3 all-reduces a [9] tensor while
# ranks 0-2 all-reduce [10]. TORCH_DISTRIBUTED_DEBUG=DETAIL reports the collective mismatch.
. /work/blind/r15/gen/env.sh
R=008_torchrun_debug_collective_mismatch_r3; D=$DATA/ds_008; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 3
$PY - <<PYEOF
import numpy as np, glob
for p in sorted(glob.glob("$D/rank*/chunk_*.npy")):
    a = np.load(p)
    a[63::64, -1] = 9          # every batch of 64 has at least one class-9 sample
    if p.endswith("rank3/chunk_001.npy"):
        a[a[:, -1] == 9, -1] = 8   # ... except rank 3's second chunk
    np.save(p, a)
PYEOF
cd $RUNS/$R
export TORCH_DISTRIBUTED_DEBUG=DETAIL
timeout 120 $TORCHRUN --nproc-per-node 4 --master-port 21108 --tee 3 --log-dir logs \
  $GEN/train.py --data-dir $D --per-class-metrics --manual-allreduce --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
