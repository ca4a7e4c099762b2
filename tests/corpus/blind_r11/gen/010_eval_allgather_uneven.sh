#!/bin/bash
# torchrun, 4 workers, console only; the team runs with TORCH_DISTRIBUTED_DEBUG=DETAIL on this experiment.
R=/work/blind/r11; RUN=$R/runs/010_eval_allgather_uneven
rm -rf $RUN && mkdir -p $RUN && cd $RUN
export OMP_NUM_THREADS=1 TORCH_DISTRIBUTED_DEBUG=DETAIL
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 31110 \
  $R/gen/010_eval_allgather_uneven.py > console.log 2>&1
