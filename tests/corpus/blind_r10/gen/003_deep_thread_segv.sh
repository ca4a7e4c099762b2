#!/bin/bash
R=/work/blind/r10/runs/003_deep_thread_segv; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/python /work/blind/r10/gen/003_deep_thread_segv.py > $R/train.log 2>&1
echo "rc=$?"
