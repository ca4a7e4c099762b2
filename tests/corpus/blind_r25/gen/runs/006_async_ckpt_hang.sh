#!/bin/bash
# async checkpointing to node-local scratch; rank 3's write of its step-20 rank state never completes
# (its target in scratch is a FIFO nobody reads: stands in for a hung local mount). At the step-40 save
# rank 3 blocks waiting for the step-20 save; ranks 0-2 go on and time out in the DDP all_reduce.
# torchrun 4 ranks; paste = whole console.
source /work/blind/r25/gen/common.sh
newrun 006_async_ckpt_hang
make_data
MAX_STEPS=80 EVAL_EVERY=30 CKPT_EVERY=20 base_config config.toml
sed -i "s|^dir = \"$W/ckpt\"|dir = \"$W/ckpt\"\nscratch = \"$W/scratch\"\nasync = true|" config.toml
mkdir -p $W/scratch/step_000020 && mkfifo $W/scratch/step_000020/rank003.pt
$TORCHRUN --nproc-per-node 4 --master-port 30060 -m tinylm.train --config config.toml > $OUT/console.log 2>&1
echo rc=$?
