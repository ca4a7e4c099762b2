#!/bin/bash
# torchrun (console only), 4 workers; rank 3's shard is short so it leaves the epoch loop,
# finishes cleanly and exits 0 while the others are still in DDP allreduce.
NAME=003_uneven_early_exit_rank3; source /work/blind/r16/gen/common.sh
FAULT=uneven FAULT_RANK=3 SHORT_N=96 STEPS=400 STEP_SLEEP=0.02 LOG_EVERY=4 LOGFMT=logging \
  $TORCHRUN --standalone --nproc-per-node=4 $TRAIN 2>&1 | tee console.log
