#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 029_healthy_tr_logdir_warnings
python $R/gen/mkdata.py data 4 --n 2000
torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31290 --rdzv-id job029 \
  --log-dir $RUN/torchrun_logs --tee 3 \
  $T --data data --steps 120 --workers 4 --find-unused --log-every 20 > $RUN/console.log 2>&1
echo exit $?
