#!/bin/bash
# torchrun --tee 3, 2 ranks, healthy
R=/work/blind/r3/runs/018_healthy_warnings; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job018; mkdir -p $J; cp /work/blind/r3/gen/018_healthy_warnings.py $J/train_small.py
cd $J
/work/blind/venv/bin/torchrun --nproc-per-node 2 --tee 3 --master-port 29518 train_small.py > $R/console.log 2>&1
echo "exit $?"
