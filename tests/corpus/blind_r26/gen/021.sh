#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 021_tr_dataloader_worker_sigkill
python $R/gen/mkdata.py data 4 --n 4000
torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31210 --rdzv-id job021 \
  --log-dir $RUN/logs --tee 3 \
  $T --data data --steps 300 --workers 2 --log-every 10 --step-sleep 0.1 > $RUN/console.log 2>&1 &
until grep -q "\[rank1\] step 40 " $RUN/console.log 2>/dev/null; do sleep 1; done
P1=$(grep -o "\[rank1\] starting rank 1/4 local_rank 1 pid [0-9]*" $RUN/console.log | awk '{print $NF}')
W=$(pgrep -P $P1 | head -1); echo "rank1 pid $P1 worker $W: $(cat /proc/$W/cmdline | tr '\0' ' ' | cut -c1-80)"
kill -9 $W
wait
