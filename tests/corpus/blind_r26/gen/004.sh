#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 004_tr_console_stuck_read
python $R/gen/mkdata.py data 4 --n 2000
mkfifo $WD/index_cache.fifo   # stands in for an NFS file whose read never returns
torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31040 --rdzv-id job004 \
  $T --data data --steps 150 --log-every 10 --log-style print --timeout 40 \
  --fault hang_read --fault-rank 3 --fault-step 57 --fault-arg $WD/index_cache.fifo 2>&1 | tee $RUN/console.txt > /dev/null
