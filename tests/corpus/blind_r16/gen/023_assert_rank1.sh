#!/bin/bash
# bash loop with per-rank logs under logs/, 4 ranks; user assertion in the training step fires on rank 1
NAME=023_assert_rank1; source /work/blind/r16/gen/common.sh
mkdir -p logs
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21023 WORLD_SIZE=4 STEPS=50 LOGFMT=logging FAULT=assert FAULT_RANK=1 FAULT_STEP=13
for r in 0 1 2 3; do RANK=$r LOCAL_RANK=$r $PY $TRAIN > logs/worker$r.log 2>&1 & done
wait
