#!/bin/bash
# mp.spawn, 3 ranks, healthy with caught-and-retried exceptions
R=/work/blind/r3/runs/019_healthy_retry; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job019; mkdir -p $J; cp /work/blind/r3/gen/019_healthy_retry.py $J/train_stream.py
cd $J
/work/blind/venv/bin/python train_stream.py > $R/console.log 2>&1
echo "exit $?"
