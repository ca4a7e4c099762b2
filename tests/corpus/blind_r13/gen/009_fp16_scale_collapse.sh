#!/bin/bash
R=/work/blind/r13/runs/009_fp16_scale_collapse
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 2 /work/blind/r13/gen/009_fp16_scale_collapse.py > $R/stdout_stderr.txt 2>&1
echo "exit=$?" >> $R/stdout_stderr.txt
