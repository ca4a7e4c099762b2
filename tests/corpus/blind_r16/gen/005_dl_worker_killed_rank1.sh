#!/bin/bash
# torchrun --log-dir --tee 3, 3 workers, 2 DataLoader workers each; on rank 1 a DataLoader worker is SIGKILLed
NAME=005_dl_worker_killed_rank1; source /work/blind/r16/gen/common.sh
FAULT=dl_worker_kill FAULT_RANK=1 FAULT_STEP=14 NUM_WORKERS=2 STEPS=80 LOGFMT=logging \
  $TORCHRUN --nnodes=1 --nproc-per-node=3 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:21005 \
  --log-dir logs --tee 3 $TRAIN > stdout_stderr.txt 2>&1
