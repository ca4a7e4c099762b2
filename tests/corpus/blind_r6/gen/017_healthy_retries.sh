#!/bin/bash
R=/work/blind/r6/runs/017_healthy_retries; rm -rf $R; mkdir -p $R
export OMP_NUM_THREADS=1 CKPT_ROOT=$R/ckpt
cd $R
timeout 85 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29717 --log-dir $R/torchrun_logs --tee 3 \
  /work/blind/r6/gen/017_healthy_retries.py > $R/console.log 2>&1
echo "exit=$?" > $R/exit_code
rm -rf $R/ckpt
