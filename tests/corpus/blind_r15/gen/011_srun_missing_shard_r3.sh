#!/bin/bash
# Data manifest lists 3 chunks per rank; rank 3's chunk_001.npy was never synced to this node.
# Rank 3 raises FileNotFoundError when it reaches that chunk (step 10); --kill-on-bad-exit=1.
. /work/blind/r15/gen/env.sh
R=011_srun_missing_shard_r3; D=$DATA/ds_011; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 3
$PY -c "
import json; json.dump({f'rank{r}': [f'rank{r}/chunk_{k:03d}.npy' for k in range(3)] for r in range(4)}, open('$D/manifest.json','w'), indent=1)"
rm $D/rank3/chunk_001.npy
cd $RUNS/$R
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21111
timeout 120 srun -l -n 4 --kill-on-bad-exit=1 $PY $GEN/train.py --data-dir $D --manifest $D/manifest.json \
  --log-every 5 --pg-timeout 20 > console.log 2>&1
echo "rc=$?"
