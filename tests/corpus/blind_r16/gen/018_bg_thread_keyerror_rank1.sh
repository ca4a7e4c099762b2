#!/bin/bash
# torchrun --log-dir --redirects 3, 4 workers; rank 1's prefetch thread dies with KeyError, its main loop then
# blocks on the empty queue; the other ranks time out in DDP allreduce.
NAME=018_bg_thread_keyerror_rank1; source /work/blind/r16/gen/common.sh
FAULT=bg_thread FAULT_RANK=1 FAULT_STEP=20 STEPS=80 LOGFMT=logging \
  $TORCHRUN --standalone --nproc-per-node=4 --log-dir tr_logs --redirects 3 $TRAIN > torchrun.out 2>&1
