#!/bin/bash
# mp.spawn, 4 ranks. The per-node CUDA_VISIBLE_DEVICES list has an empty slot for local rank 2, so rank 2 takes
# the "CPU offload" code path and calls an extra all_gather every 10 steps while ranks 0,1,3 are in DDP's
# gradient all_reduce: the collectives diverge, everyone times out (15 s).
source /work/blind/r18/gen/common.sh
newrun 003_offload_path_divergence
export MASTER_PORT=23003 CUDA_VISIBLE_DEVICES="0,1,,3"
$PY $GEN/p003_offload.py > stdout.txt 2>&1
echo "rc=$?"
