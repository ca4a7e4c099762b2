#!/bin/bash
# the shared login/compute container caps address space per process at 4 GiB
R=/work/blind/r12/runs/004_shuffle_buffer_rlimit
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
ulimit -v 4194304
timeout 60 /work/blind/venv/bin/python /work/blind/r12/gen/004_shuffle_buffer_rlimit.py > $R/train.out 2>&1
echo "exit=$?" >> $R/train.out
