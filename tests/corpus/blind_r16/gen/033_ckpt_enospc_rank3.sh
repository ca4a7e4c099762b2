#!/bin/bash
# torchrun --log-dir --redirects 2 (stderr to files, stdout on console), 4 workers; every rank saves its own
# shard to node-local scratch; rank 3's scratch (a 2 MiB tmpfs) fills up -> ENOSPC
NAME=033_ckpt_enospc_rank3; source /work/blind/r16/gen/common.sh
B=/work/blind/r16/mnt/033; mkdir -p $B/s0 $B/s1 $B/s2 $B/s3; mount -t tmpfs -o size=2m tmpfs $B/s3
SAVE_ALL=1 SAVE_VIA_FILEOBJ=1 CKPT_DIR="$B/s{rank}" CKPT_EVERY=8 CKPT_PAD=150000 STEPS=80 LOGFMT=plain \
  $TORCHRUN --standalone --nproc-per-node 4 --log-dir logs --redirects 2 $TRAIN > console.out 2>&1
umount $B/s3; rm -rf $B
