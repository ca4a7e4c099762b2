#!/bin/bash
# Rank 1's shard was produced by a newer preprocessing version with 33 features instead of 32:
# the first Linear layer fails on rank 1 (shape mismatch); the others lose their peer in DDP.
# Launched with --redirects 3 --log-dir: worker output goes only to per-rank files.
. /work/blind/r15/gen/env.sh
R=006_torchrun_redirect_shape_r1; D=$DATA/ds_006; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 3
$PY $GEN/make_data.py $D/v2 --ranks 4 --chunks 3 --features 33
rm -rf $D/rank1 && mv $D/v2/rank1 $D/rank1 && rm -rf $D/v2
cd $RUNS/$R
timeout 120 $TORCHRUN --nnodes 1 --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 21106 --redirects 3 --log-dir logs \
  $GEN/train.py --data-dir $D --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
