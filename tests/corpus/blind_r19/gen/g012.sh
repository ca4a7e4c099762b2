#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=012_mmap_shard_compaction; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
for r in 0 1; do head -c $((5000*32*4)) /dev/urandom > $W/$RUN/shard$r.bin; $PY -c "
import numpy as np; a=np.random.randn(5000,32).astype('float32'); a.tofile('$W/$RUN/shard$r.bin')"; done
# a dataset compaction job rewrites shard1 in place while the training job reads it
( sleep 9; truncate -s 0 $W/$RUN/shard1.bin; echo "compaction: truncated shard1.bin" >&2 ) 2> $W/$RUN/compaction.err &
$TORCHRUN --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 24012 --tee 3 \
  $G/train.py --steps 120 --fail busdl --workers 2 --fail-rank 1 --timeout 30 --run-id $RUN --fmt plain \
  > $OUT/console.log 2>&1
echo "exit=$?"; wait
