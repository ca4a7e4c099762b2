#!/bin/bash
# Healthy: torchrun 3 procs, per-rank files via --log-dir/--redirects 3 (+ console). rank2/index.json
# appears only ~5 s after launch (a sync still finishing); rank 2 logs the error and retries.
set -u
source /work/blind/r24/gen/common.sh
N=032_healthy_retried_missing_index; W=$R/work/j032; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W/data/rank0 $W/data/rank1 $W/data/rank2; cd $W
for r in 0 1; do echo '{"num_samples": 4096}' > $W/data/rank$r/index.json; done
(sleep 9; echo '{"num_samples": 4096}' > $W/data/rank2/index.json.part && mv $W/data/rank2/index.json.part $W/data/rank2/index.json) &
DATA_DIR=$W/data timeout 150 $TORCHRUN --nproc-per-node 3 --max-restarts 0 --rdzv-backend c10d --rdzv-endpoint localhost:29134 \
  --rdzv-id job032 --log-dir $OUT/logs --redirects 3 $R/gen/s032.py > $OUT/console.log 2>&1
echo rc=$?
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
