#!/bin/bash
# Batches come from a background prefetch thread reading raw float32 chunk files. Rank 3's
# chunk_001.bin is truncated (partial copy): .view(-1, 33) raises inside the thread, the thread
# dies, rank 3's main loop blocks forever on queue.get(); ranks 0-2 time out (15 s) in the
# gradient allreduce.
. /work/blind/r15/gen/env.sh
R=023_torchrun_prefetch_thread_r3; D=$DATA/ds_023; rm -rf $D $RUNS/$R; mkdir -p $RUNS/$R
$PY $GEN/make_data.py $D --ranks 4 --chunks 3 --fmt bin
truncate -s 40000 $D/rank3/chunk_001.bin
cd $RUNS/$R
timeout 120 $TORCHRUN --nproc-per-node 4 --master-port 21123 --log-dir logs $GEN/train.py --data-dir $D --prefetch \
  --log-every 5 --step-sleep 0.05 --pg-timeout 15 > console.log 2>&1
echo "rc=$?"
