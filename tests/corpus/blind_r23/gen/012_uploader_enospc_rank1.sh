#!/bin/bash
# 012: torchrun 4 ranks (8 training parts -> 2 per rank, even) (--tee 3, console only), Lightning-style trainer. Each
# rank's background "artifact-uploader" thread copies weights+metrics every 50
# steps to a per-rank local dir; rank 1's dir is a 200 KB tmpfs (a full local
# disk) -> OSError ENOSPC in the thread; the main loop then notices the thread
# died and raises.
set -u
R=/work/blind/r23; RUN=$R/runs/012_uploader_enospc_rank1; rm -rf $RUN; mkdir -p $RUN
cd $R/work; A=$R/work/artifacts012; for i in 0 1 2 3; do umount $A/rank$i 2>/dev/null; done; rm -rf $A
mkdir -p $A/rank0 $A/rank1 $A/rank2 $A/rank3
mount -t tmpfs -o size=200k tmpfs $A/rank1
timeout 200 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 4 --tee 3 \
  $R/gen/train_mlp.py --data-dir data/tab --epochs 3 --val-every 60 --ckpt-dir /tmp/r23_ck012 \
  --upload-dir "$A/rank{rank}" --timeout 30 > $RUN/console.log 2>&1
echo rc=$?
umount $A/rank1
