#!/bin/bash
R=/work/blind/r7/runs/003_abort_doublefree; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --redirects 3 --log-dir $R/logs \
   /work/blind/r7/gen/003_abort_doublefree.py > $R/launcher.out 2>&1
echo "exit=$?"
