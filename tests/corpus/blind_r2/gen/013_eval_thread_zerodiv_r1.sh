#!/bin/bash
# torchrun, 3 workers, console only (no --tee, so no rank prefixes on plain output)
set -u
RUN=/work/blind/r2/runs/013_eval_thread_zerodiv_r1
rm -rf $RUN; mkdir -p $RUN; cd $RUN
export OMP_NUM_THREADS=1
/work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29623 /work/blind/r2/gen/013_eval_thread_zerodiv_r1.py > console.log 2>&1
echo "exit code $?"
