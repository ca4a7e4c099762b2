#!/bin/bash
# torchrun --tee 3; checkpoint dir is a 1 MB tmpfs (stand-in for a full volume)
R=/work/blind/r3/runs/008_ckpt_tmpfs_full; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job008; mkdir -p $J/ckpt; cp /work/blind/r3/gen/008_ckpt_tmpfs_full.py $J/train_ae_ckpt.py
mount -t tmpfs -o size=1M tmpfs $J/ckpt
cd $J
CKPT_DIR=$J/ckpt /work/blind/venv/bin/torchrun --nproc-per-node 2 --tee 3 --master-port 29508 train_ae_ckpt.py > $R/console.log 2>&1
echo "exit $?"
umount $J/ckpt
