#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=017_torn_shard_resume; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN/ckpt; rm -rf $OUT/*
cd $W/$RUN
for r in 0 1 2; do $PY $G/mkckpt.py $W/$RUN/ckpt/shard_rank$r.pt 32 64; done
# the previous job was killed while writing rank 0's shard: torn file
S=$(stat -c %s $W/$RUN/ckpt/shard_rank0.pt); truncate -s $((S*6/10)) $W/$RUN/ckpt/shard_rank0.pt
$TORCHRUN --nnodes 1 --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 24017 --log-dir $OUT/torchelastic --redirects 3 \
  $G/train.py --steps 60 --resume $W/$RUN/ckpt/shard_rank{rank}.pt --timeout 40 --run-id $RUN --fmt hf \
  > $OUT/launcher.log 2>&1
echo "exit=$?"
