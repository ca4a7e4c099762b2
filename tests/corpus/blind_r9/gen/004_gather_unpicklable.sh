#!/bin/bash
R=/work/blind/r9/runs/004_gather_unpicklable; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/python /work/blind/r9/gen/004_gather_unpicklable.py > $R/train.out 2>&1
echo "exit=$?" >> $R/train.out
