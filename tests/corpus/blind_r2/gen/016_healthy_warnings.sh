#!/bin/bash
# torchrun, 2 workers, console only; OMP_NUM_THREADS deliberately unset (torchrun warns about it)
set -u
RUN=/work/blind/r2/runs/016_healthy_warnings
rm -rf $RUN; mkdir -p $RUN; cd $RUN
unset OMP_NUM_THREADS
/work/blind/venv/bin/torchrun --nproc-per-node 2 --master-port 29626 /work/blind/r2/gen/016_healthy_warnings.py > console.log 2>&1
echo "exit code $?"
