#!/bin/bash
R=/work/blind/r12/runs/014_bn_last_batch_one
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
timeout 60 /work/blind/venv/bin/python /work/blind/r12/gen/014_bn_last_batch_one.py > $R/console.txt 2>&1
echo "exit=$?" >> $R/console.txt
