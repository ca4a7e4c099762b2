#!/bin/bash
# mp.spawn, 3 ranks, TORCH_DISTRIBUTED_DEBUG=DETAIL; rank 2 all_reduces a 5-element metrics tensor, the others 4
NAME=004_coll_shape_debug_rank2; source /work/blind/r16/gen/common.sh
MASTER_PORT=21004 TORCH_DISTRIBUTED_DEBUG=DETAIL NODDP=1 FAULT=coll_shape FAULT_RANK=2 FAULT_STEP=7 STEPS=40 LOGFMT=plain \
  $PY $GEN/spawn_launch.py 3 > train_output.txt 2>&1
