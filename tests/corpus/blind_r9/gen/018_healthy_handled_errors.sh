#!/bin/bash
R=/work/blind/r9/runs/018_healthy_handled_errors; rm -rf $R; mkdir -p $R/out; cd $R
export OMP_NUM_THREADS=1 OUT=$R/out
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 2 --master-port 30020 --log-dir $R/torchrun_logs --tee 3 \
   /work/blind/r9/gen/018_healthy_handled_errors.py > $R/console.log 2>&1
echo "exit=$?" >> $R/console.log
rm -rf $R/out
