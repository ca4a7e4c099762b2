#!/bin/bash
# torchrun 4 ranks, @record error files, plain console
R=/work/blind/r3/runs/011_inf_loss_guard; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job011; mkdir -p $J; cp /work/blind/r3/gen/011_inf_loss_guard.py $J/train_sensors.py
cd $J
/work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint localhost:29511 train_sensors.py > $R/console.log 2>&1
echo "exit $?"
