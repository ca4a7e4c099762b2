#!/bin/bash
# torchrun --log-dir --redirects 3, 3 workers; rank 2's collate path converts via numpy and yields float64 -> dtype error in Linear
NAME=026_float64_batch_rank2; source /work/blind/r16/gen/common.sh
FAULT=dtype FAULT_RANK=2 FAULT_STEP=9 STEPS=50 LOGFMT=logging \
  $TORCHRUN --standalone --nproc-per-node 3 --log-dir run_logs --redirects 3 $TRAIN > torchrun_console.log 2>&1
