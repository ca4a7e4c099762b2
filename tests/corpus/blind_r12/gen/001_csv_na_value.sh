#!/bin/bash
R=/work/blind/r12/runs/001_csv_na_value
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 32101 --log-dir $R/torchrun_logs --tee 3 \
  /work/blind/r12/gen/001_csv_na_value.py > $R/launcher.log 2>&1
echo "exit=$?" >> $R/launcher.log
rm -rf $R/data
