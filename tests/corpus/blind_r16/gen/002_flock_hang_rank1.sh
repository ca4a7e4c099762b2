#!/bin/bash
# bash loop, 3 ranks via env vars; rank 1 blocks on an flock held by a stale indexer process,
# ranks 0 and 2 hit the gloo timeout in DDP allreduce; launcher then kills the rest.
NAME=002_flock_hang_rank1; source /work/blind/r16/gen/common.sh
LOCK=/work/blind/r16/mnt/002_index.lock; touch $LOCK
flock $LOCK sleep 90 & HOLDER=$!
mkdir -p logs
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21002 WORLD_SIZE=3
pids=()
for r in 0 1 2; do
  RANK=$r LOCAL_RANK=$r LOGFMT=plain FAULT=lock FAULT_RANK=1 FAULT_STEP=9 LOCK_FILE=$LOCK STEPS=60 \
    $PY $TRAIN > logs/rank$r.log 2>&1 &
  pids+=($!)
done
echo "launched ranks: ${pids[*]}" | tee launcher.log
wait -n; rc=$?
echo "$(date '+%F %T') a rank exited with status $rc; stopping remaining ranks" | tee -a launcher.log
sleep 2
for p in "${pids[@]}"; do kill -TERM $p 2>/dev/null && echo "sent SIGTERM to $p" | tee -a launcher.log; done
wait
kill $HOLDER; rm -f $LOCK
