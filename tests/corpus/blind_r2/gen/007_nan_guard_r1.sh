#!/bin/bash
# plain python + torch.multiprocessing.spawn, 2 ranks
set -u
RUN=/work/blind/r2/runs/007_nan_guard_r1
rm -rf $RUN; mkdir -p $RUN; cd $RUN
export OMP_NUM_THREADS=1
/work/blind/venv/bin/python /work/blind/r2/gen/007_nan_guard_r1.py > console.log 2>&1
echo "exit code $?"
