#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=004_stats_sync_bug; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
export TORCH_DISTRIBUTED_DEBUG=DETAIL
$TORCHRUN --nnodes 1 --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 24004 --tee 3 --local-ranks-filter 0,1 \
  $G/train.py --steps 60 --fail shape_collective --fail-rank 0 --fail-step 27 --timeout 30 --run-id $RUN --fmt plain --no-ddp \
  > $OUT/console.log 2>&1
echo "exit=$?"
