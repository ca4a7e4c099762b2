#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=002_feature_cache_growth; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
$G/oomwatch.sh 3000 120 2> $W/$RUN/oomwatch.err &
$TORCHRUN --nnodes 1 --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 24002 --log-dir $OUT/torchrun_logs --redirects 3 \
  $G/train.py --steps 80 --fail memhog --fail-rank 3 --fail-step 31 --timeout 60 --run-id $RUN --fmt hf \
  > $OUT/launcher_console.log 2>&1
echo "exit=$?"; wait
