#!/bin/bash
# mp.spawn, output to stdout.txt
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/002_native_collate_segv; rm -rf $D; mkdir -p $D; cd $D
gcc -shared -fPIC -O0 -o /work/blind/r22/work/libfastcollate.so $G/fastcollate.c
FASTCOLLATE_SO=/work/blind/r22/work/libfastcollate.so OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/python $G/train_002.py > stdout.txt 2>&1
echo "rc=$?"
