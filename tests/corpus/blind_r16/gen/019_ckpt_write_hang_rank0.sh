#!/bin/bash
# torchrun --log-dir --redirects 1 (stdout to files, stderr to console), 3 workers; rank 0 saves a checkpoint
# whose target path is a FIFO with no reader (stands in for a wedged network filesystem): open() never
# returns, ranks 1 and 2 time out in the post-save barrier.
NAME=019_ckpt_write_hang_rank0; source /work/blind/r16/gen/common.sh
C=/work/blind/r16/mnt/019_ckpt; mkdir -p $C; mkfifo $C/step000020.pt
STEPS=60 CKPT_EVERY=20 CKPT_DIR=$C LOGFMT=logging TIMEOUT_S=20 \
  $TORCHRUN --standalone --nproc-per-node=3 --log-dir logs --redirects 1 $TRAIN > console.txt 2>&1
rm -rf $C
