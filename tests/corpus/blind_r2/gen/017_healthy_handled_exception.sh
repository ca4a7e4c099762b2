#!/bin/bash
# plain python + mp.spawn, 3 ranks, logging to stderr
set -u
RUN=/work/blind/r2/runs/017_healthy_handled_exception
rm -rf $RUN; mkdir -p $RUN; cd $RUN
export OMP_NUM_THREADS=1
/work/blind/venv/bin/python /work/blind/r2/gen/017_healthy_handled_exception.py > console.log 2>&1
echo "exit code $?"
