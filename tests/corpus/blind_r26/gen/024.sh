#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 024_tr_restarts_missing_shard
python $R/gen/mkdata.py data 4 --n 1000 --skip 3
torchrun --nnodes 1 --nproc-per-node 4 --max-restarts 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31240 --rdzv-id job024 \
  --log-dir $RUN/elastic -r 3 \
  $T --data data --steps 100 --log-every 10 > $RUN/launcher.log 2>&1
echo exit $?
