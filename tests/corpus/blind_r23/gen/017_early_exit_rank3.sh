#!/bin/bash
# 017: torchrun 4 ranks, epoch-based loop (1 epoch), 11 shards split
# shards[rank::4] -> ranks 0-2 get 3 shards, rank 3 gets 2. Rank 3 runs out of
# batches at step 156, logs 'training done', destroys its process group and
# exits 0, while ranks 0-2 continue into step 157's allreduce.
set -u
R=/work/blind/r23; RUN=$R/runs/017_early_exit_rank3; rm -rf $RUN; mkdir -p $RUN
cd $R/work
timeout 200 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 --tee 3 \
  $R/gen/train_lm.py --data-dir data/uneven --epochs 1 --eval-every 50 --ckpt-every 100 \
  --ckpt-dir /tmp/r23_ck017 --timeout 30 --log-style accel > $RUN/torchrun.log 2>&1
echo rc=$?
