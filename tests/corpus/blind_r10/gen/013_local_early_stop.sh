#!/bin/bash
R=/work/blind/r10/runs/013_local_early_stop; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/python /work/blind/r10/gen/013_local_early_stop.py > $R/stdout.txt 2> $R/stderr.txt
echo "rc=$?"
