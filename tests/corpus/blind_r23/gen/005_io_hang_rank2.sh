#!/bin/bash
# 005: torchrun, 4 ranks, --log-dir + --redirects 3 (per-rank files, launcher
# stderr separately). At step 170 rank 2 opens a "shard on the shared mount"
# that is really a FIFO with no writer -> blocks forever in open(). Ranks 0,1,3
# wait in DDP's allreduce and hit the 30 s gloo timeout.
set -u
R=/work/blind/r23; RUN=$R/runs/005_io_hang_rank2; rm -rf $RUN; mkdir -p $RUN
cd $R/work; mkdir -p mnt/lustre/corpus; rm -f mnt/lustre/corpus/shard_00012.npy
mkfifo mnt/lustre/corpus/shard_00012.npy
HANG_FIFO=$R/work/mnt/lustre/corpus/shard_00012.npy CHAOS=hang_fifo@2@170 timeout 250 \
  /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 --log-dir $RUN/logs --redirects 3 \
  $R/gen/train_lm.py --data-dir data/base --steps 400 --eval-every 100 --ckpt-every 100 \
  --ckpt-dir /tmp/r23_ck005 --timeout 30 > $RUN/launcher.out 2> $RUN/launcher.err
echo rc=$?
