#!/bin/bash
# torchrun with --tee 3 (prefixed per-rank lines on the console)
R=/work/blind/r3/runs/001_collate_shard_keyerror; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job001; mkdir -p $J; cp /work/blind/r3/gen/001_collate_shard_keyerror.py $J/train_reviews.py
cd $J
/work/blind/venv/bin/torchrun --nproc-per-node 3 --tee 3 --master-port 29501 \
  train_reviews.py > $R/console.log 2>&1
echo "exit $?"
