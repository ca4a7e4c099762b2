#!/bin/bash
# 011 (as it actually turned out): with 3 ranks and 8 training parts, rank 2
# gets 2 parts (8192 rows) while ranks 0,1 get 3 (12288 rows). Rank 2 finishes
# epoch 0 first and enters the validation all_reduce while ranks 0,1 are still
# in DDP's gradient allreduce -> gloo size mismatch -> rank 2 aborts (SIGABRT).
# The rank-1 tmpfs below was meant to fill up (see 012) but never did before
# the crash. Original intent:
# torchrun 3 ranks (--tee 3, console only), Lightning-style trainer. Each
# rank's background "artifact-uploader" thread copies weights+metrics every 50
# steps to a per-rank local dir; rank 1's dir is a 200 KB tmpfs (a full local
# disk) -> OSError ENOSPC in the thread; the main loop then notices the thread
# died and raises.
set -u
R=/work/blind/r23; RUN=$R/runs/011_uneven_epoch_rank2; rm -rf $RUN; mkdir -p $RUN
cd $R/work; A=$R/work/artifacts011; for i in 0 1 2; do umount $A/rank$i 2>/dev/null; done; rm -rf $A
mkdir -p $A/rank0 $A/rank1 $A/rank2
mount -t tmpfs -o size=200k tmpfs $A/rank1
timeout 200 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --tee 3 \
  $R/gen/train_mlp.py --data-dir data/tab --epochs 3 --val-every 60 --ckpt-dir /tmp/r23_ck011 \
  --upload-dir "$A/rank{rank}" --timeout 30 > $RUN/console.log 2>&1
echo rc=$?
umount $A/rank1
