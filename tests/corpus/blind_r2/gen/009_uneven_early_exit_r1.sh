#!/bin/bash
# torchrun, 3 workers, plain prints, console only
set -u
RUN=/work/blind/r2/runs/009_uneven_early_exit_r1
rm -rf $RUN; mkdir -p $RUN; cd $RUN
export OMP_NUM_THREADS=1
/work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29619 /work/blind/r2/gen/009_uneven_early_exit_r1.py > console.log 2>&1
echo "exit code $?"
