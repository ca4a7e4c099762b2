#!/bin/bash
# mp.spawn launcher, 3 ranks
R=/work/blind/r3/runs/016_metrics_thread_keyerror; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job016; mkdir -p $J; cp /work/blind/r3/gen/016_metrics_thread_keyerror.py $J/train_main.py
cd $J
/work/blind/venv/bin/python train_main.py > $R/console.log 2>&1
echo "exit $?"
