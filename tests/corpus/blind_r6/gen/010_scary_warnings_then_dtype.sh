#!/bin/bash
R=/work/blind/r6/runs/010_scary_warnings_then_dtype; rm -rf $R; mkdir -p $R
export OMP_NUM_THREADS=1
cd $R
timeout 85 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 29710 --log-dir $R/torchrun_logs --tee 3 \
  /work/blind/r6/gen/010_scary_warnings_then_dtype.py > $R/console.log 2>&1
echo "exit=$?" > $R/exit_code
