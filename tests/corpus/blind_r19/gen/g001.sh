#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=001_shard_index_stall; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN
rm -f $W/$RUN/shard_index.fifo; mkfifo $W/$RUN/shard_index.fifo
cd $W/$RUN
$TORCHRUN --nnodes 1 --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 24001 --tee 3 \
  $G/train.py --steps 80 --fail fifo_read --fail-rank 0 --fail-step 23 --timeout 30 --run-id $RUN --fmt plain \
  > $OUT/console.log 2>&1
echo "exit=$?"
