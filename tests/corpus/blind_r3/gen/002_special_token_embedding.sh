#!/bin/bash
# torch.multiprocessing.spawn launcher, plain `python train.py`
R=/work/blind/r3/runs/002_special_token_embedding; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job002; mkdir -p $J; cp /work/blind/r3/gen/002_special_token_embedding.py $J/train_charlm.py
cd $J
/work/blind/venv/bin/python train_charlm.py > $R/console.log 2>&1
echo "exit $?"
