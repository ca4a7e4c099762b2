#!/bin/bash
# HEALTHY: mp.spawn (2 procs), stdout+stderr -> log.txt
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/026_healthy_mpspawn_progress; rm -rf $D; mkdir -p $D /work/blind/r22/work/out026; cd $D
OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/python $G/train_026.py /work/blind/r22/work/out026 > log.txt 2>&1
echo "rc=$?"
