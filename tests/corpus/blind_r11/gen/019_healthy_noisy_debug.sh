#!/bin/bash
# torchrun, 3 workers, console only, with c10d debug logging turned on while chasing an unrelated slowdown.
R=/work/blind/r11; RUN=$R/runs/019_healthy_noisy_debug
rm -rf $RUN && mkdir -p $RUN && cd $RUN
export OMP_NUM_THREADS=1 TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO PYTHONWARNINGS=default
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-addr 127.0.0.1 --master-port 31119 \
  $R/gen/019_healthy_noisy_debug.py > console.log 2>&1
echo "exit $?"
