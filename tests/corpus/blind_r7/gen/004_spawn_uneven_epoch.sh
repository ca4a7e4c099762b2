#!/bin/bash
R=/work/blind/r7/runs/004_spawn_uneven_epoch; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/python /work/blind/r7/gen/004_spawn_uneven_epoch.py > $R/train.log 2>&1
echo "exit=$?"
