#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 001_tr_logdir_bad_jsonl
python $R/gen/mkdata.py data 4 --n 2000 --bad 2:300
torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31010 --rdzv-id job001 \
  --log-dir $RUN/torchrun_logs --tee 3 \
  $T --data data --steps 80 --workers 2 --log-every 5 > $RUN/console.log 2>&1
echo "exit $?" 
