#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=016_readonly_ckpt_mount; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
for r in 0 1 2; do umount $W/$RUN/ckpt/rank$r 2>/dev/null; mkdir -p $W/$RUN/ckpt/rank$r $W/$RUN/src_rank$r; done
# rank 1's checkpoint directory is mounted read-only
mount --bind -o ro $W/$RUN/src_rank1 $W/$RUN/ckpt/rank1
$TORCHRUN --nnodes 1 --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 24016 --log-dir $OUT/logs --tee 3 \
  $G/train.py --steps 60 --ckpt-every 25 --ckpt-dir $W/$RUN/ckpt/rank{rank}/step{step} --timeout 40 --run-id $RUN --fmt plain \
  > $OUT/console.log 2>&1
echo "exit=$?"
umount $W/$RUN/ckpt/rank1
