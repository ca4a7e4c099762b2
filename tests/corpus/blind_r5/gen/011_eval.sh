#!/bin/bash
D=/work/blind/r5/runs/011_eval; mkdir -p $D; cd $D
OMP_NUM_THREADS=1 timeout 60 /work/blind/venv/bin/python /work/blind/r5/gen/011_eval.py > console.log 2>&1
echo "exit=$?"
