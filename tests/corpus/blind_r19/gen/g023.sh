#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=023_baseline_small_mlp; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
for r in 0 1; do $PY -c "
import numpy as np; a=np.random.randn(3000,32).astype('float32'); a.tofile('$W/$RUN/shard$r.bin')"; done
$TORCHRUN --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 24023 --tee 3 \
  $G/train.py --steps 80 --warn --workers 4 --timeout 40 --run-id $RUN --fmt plain > $OUT/console.log 2>&1
echo "exit=$?"
