#!/bin/bash
# torchrun --tee 3, no log dir; logs as "[time][L][rank/world]". Each rank writes its checkpoint shard from a
# background thread and waits for the previous write before starting the next save. Rank 3's shard of step 15
# goes to a path on a hung network mount (here a FIFO nobody reads: open() blocks forever). torch.save opens
# the file in C++ without releasing the GIL, so rank 3's whole process freezes right after "shard write started
# in background" at step 15; ranks 0-2 wait in the step-16 all_reduce and time out after 15 s.
source /work/blind/r18/gen/common.sh
newrun 023_async_ckpt_writer_stuck
mkdir -p $WORK/ckpt/step_000015
mkfifo $WORK/ckpt/step_000015/shard-00003-of-00004.pt
export CKPT_DIR=$WORK/ckpt
$TORCHRUN --nproc-per-node 4 --master-port 23023 --tee 3 $GEN/p023_asyncckpt.py > train_console.log 2>&1
echo "rc=$?"
