#!/bin/bash
D=/work/blind/r5/runs/003_nightly; mkdir -p $D; cd $D
export CACHE_LOCK=/tmp/r5_003_vocab.lock; touch $CACHE_LOCK
# a stale process from a previous job holds the lock
flock $CACHE_LOCK sleep 45 & HOLDER=$!
sleep 0.5
OMP_NUM_THREADS=1 timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint localhost:29613 /work/blind/r5/gen/003_nightly.py > console.log 2>&1
echo "exit=$?"
kill $HOLDER; pkill -P $HOLDER 2>/dev/null; wait
