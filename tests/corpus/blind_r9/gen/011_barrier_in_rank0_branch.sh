#!/bin/bash
R=/work/blind/r9/runs/011_barrier_in_rank0_branch; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --master-port 30012 /work/blind/r9/gen/011_barrier_in_rank0_branch.py > $R/output.txt 2>&1
echo "exit=$?" >> $R/output.txt
