#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=003_early_epoch_end; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
MASTER_PORT=24003 NPROCS=3 $PY $G/spawn_main.py --steps 60 --fail early_exit --fail-rank 1 --fail-step 41 --timeout 40 --run-id $RUN --fmt weird \
  > $OUT/train_output.txt 2>&1
echo "exit=$?"
