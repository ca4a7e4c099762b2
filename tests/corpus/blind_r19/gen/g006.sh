#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=006_native_helper_crash; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
export MASTER_ADDR=127.0.0.1 MASTER_PORT=24006
srun -J helper -n 4 -O --label --kill-on-bad-exit=1 $PY $G/train.py --steps 70 --fail segfault --fail-rank 2 --fail-step 18 --timeout 60 --run-id $RUN --fmt bare \
  > $OUT/job.log 2>&1
echo "exit=$?"
