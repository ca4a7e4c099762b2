#!/bin/bash
# two torchrun agents (simulated nodes, 2 workers each, c10d rendezvous); every rank saves its shard to
# its own dir; rank 2's dir is a read-only bind mount -> EROFS on save
NAME=008_ckpt_erofs_rank2_2nodes; source /work/blind/r16/gen/common.sh
B=/work/blind/r16/mnt/008; mkdir -p $B/shard0 $B/shard1 $B/shard2 $B/shard3
mount --bind $B/shard2 $B/shard2; mount -o remount,bind,ro $B/shard2
export STEPS=50 CKPT_EVERY=15 SAVE_ALL=1 CKPT_DIR="$B/shard{rank}" LOGFMT=plain
for n in 0 1; do
  $TORCHRUN --nnodes=2 --node-rank=$n --nproc-per-node=2 --rdzv-id=job008 --rdzv-backend=c10d \
     --rdzv-endpoint=127.0.0.1:21008 $TRAIN > node$n.log 2>&1 &
done
wait
umount $B/shard2; rm -rf $B
