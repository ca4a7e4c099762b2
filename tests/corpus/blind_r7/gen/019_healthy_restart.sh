#!/bin/bash
R=/work/blind/r7/runs/019_healthy_restart; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1 CKPT=$R/latest.pt
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --max-restarts 2 --master-port 29819 \
   --log-dir $R/logs --tee 3 /work/blind/r7/gen/019_healthy_restart.py > $R/stdout_stderr.log 2>&1
echo "exit=$?" | tee -a $R/stdout_stderr.log
