#!/bin/bash
# checkpoint disk full (small tmpfs) on rank 1 (the checkpoint writer), torchrun --log-dir --redirects 3
source /work/blind/r20/gen/common.sh
D=$R/005_ckpt_every_5; rm -rf $D; mkdir -p $D; cd $W
M=$W/scratch005; mkdir -p $M; umount $M 2>/dev/null; mount -t tmpfs -o size=2m tmpfs $M
CKPT_DIR=$M/ckpt CKPT_EVERY=5 CKPT_RANK=1 CKPT_PAD=300000 NSTEPS=30 FMT=plain \
 $TR --nproc-per-node 3 --master-port 25015 --log-dir $D/torchrun_logs --redirects 3 $G/train.py > $D/launcher.log 2>&1
echo rc=$?
df -h $M; umount $M
