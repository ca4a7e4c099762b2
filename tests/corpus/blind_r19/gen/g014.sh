#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=014_wide_feature_shard; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
$TORCHRUN --nnodes 1 --master-addr 127.0.0.1 --master-port 24014 --nproc-per-node 3 --tee 3 \
  $G/train.py --steps 60 --fail shape --fail-rank 2 --fail-step 44 --timeout 60 --run-id $RUN --fmt hf \
  > $OUT/torchrun.out 2>&1
echo "exit=$?"
