#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=005_prefetch_thread; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
export MASTER_ADDR=127.0.0.1 MASTER_PORT=24005
srun -J prefetch -n 3 -O -W 30 $PY $G/train.py --steps 70 --fail thread_exc --fail-rank 2 --fail-step 33 --timeout 30 --run-id $RUN --fmt hf \
  > $OUT/srun_console.log 2>&1
echo "exit=$?"
