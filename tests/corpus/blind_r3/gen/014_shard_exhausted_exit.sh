#!/bin/bash
# torchrun 3 ranks, no tee; python logging (pid, not rank, in each line)
R=/work/blind/r3/runs/014_shard_exhausted_exit; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job014; mkdir -p $J; cp /work/blind/r3/gen/014_shard_exhausted_exit.py $J/stream_train.py
cd $J
/work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29514 stream_train.py > $R/console.log 2>&1
echo "exit $?"
