#!/bin/bash
# torchrun --log-dir --redirects 3 --tee 3, 3 workers; rank 1 dereferences NULL via ctypes (SIGSEGV) mid-training
NAME=011_segfault_rank1; source /work/blind/r16/gen/common.sh
FAULT=segv FAULT_RANK=1 FAULT_STEP=21 STEPS=60 LOGFMT=logging \
  $TORCHRUN --standalone --nproc-per-node=3 --log-dir logs --redirects 3 --tee 3 $TRAIN > console.log 2>&1
