#!/bin/bash
R=/work/blind/r8/runs/019_healthy_early_stop; rm -rf $R; mkdir -p $R /work/blind/r8/meta/019
cd /work/blind/r8/meta/019; export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 2 --master-port 29919 \
  --log-dir $R/torchrun_logs --tee 3 /work/blind/r8/gen/019_healthy_early_stop.py > $R/output.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/019.rc
