#!/bin/bash
# bash loop, per-rank log files; the job script exports WORLD_SIZE=4 but only 3 ranks are started
# (hostfile lost a line) -> rank 0's store waits for the 4th client and everyone times out in init
NAME=021_world_size_too_big; source /work/blind/r16/gen/common.sh
mkdir -p out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21021 WORLD_SIZE=4 STEPS=30 LOGFMT=plain
for r in 0 1 2; do RANK=$r LOCAL_RANK=$r $PY $TRAIN > out/train_rank$r.txt 2>&1 & done
wait
