#!/bin/bash
# HEALTHY. bash loop, 3 ranks, rank 0 (store host) starts 8 s late, so ranks 1,2 log connection-refused
# retries while the store is not up yet (C++ INFO logging on); metrics push retried; training finishes.
NAME=031_healthy_slow_master; source /work/blind/r16/gen/common.sh
export MASTER_ADDR=127.0.0.1 MASTER_PORT=21031 WORLD_SIZE=3 STEPS=40 TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=INFO FLAKY_PUSH=21931
( for r in 1 2; do RANK=$r LOCAL_RANK=$r $PY $GEN/healthy_train.py & done
  sleep 8; RANK=0 LOCAL_RANK=0 $PY $GEN/healthy_train.py & wait ) > all_ranks.log 2>&1
