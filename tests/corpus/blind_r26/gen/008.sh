#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 008_tr_logdir_nan_rank2
python $R/gen/mkdata.py data 4 --n 2000
torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31080 --rdzv-id job008 \
  --log-dir $RUN/logs -r 3 \
  $T --data data --steps 150 --log-every 5 --fault nan_data --fault-rank 2 --fault-step 23 > $RUN/launcher.out 2>&1
echo exit $?
