#!/bin/bash
# srun --label, 4 tasks. BucketSampler.__iter__ holds a non-reentrant threading.Lock and calls _split_oversized(),
# which takes the same lock: self-deadlock. Only rank 3's bucket plan has an oversized (24-sample) bucket,
# in epoch 1. Ranks 0-2 wait in the DDP all_reduce of epoch 1 and hit the 15 s gloo timeout; srun -K kills rank 3.
source /work/blind/r18/gen/common.sh
newrun 002_bucket_sampler_deadlock
mkdir -p $WORK/shards
for r in 0 1 2 3; do
$PY - $r > $WORK/shards/buckets_0$r.json <<'PY'
import json, sys
r = int(sys.argv[1]); plan = []
for e in range(3):
    ids = list(range(e * 1000, e * 1000 + 96))
    buckets = [ids[i:i + 16] for i in range(0, 96, 16)]
    if r == 3 and e == 1:
        buckets = buckets[:2] + [ids[32:56]] + [ids[56:64]] + buckets[4:]
    plan.append(buckets)
print(json.dumps(plan))
PY
done
export SHARD_DIR=$WORK/shards MASTER_ADDR=127.0.0.1 MASTER_PORT=23002
srun -n 4 --label --kill-on-bad-exit=1 -J pretrain-small $PY $GEN/p002_sampler.py > train.log 2>&1
echo "rc=$?"
