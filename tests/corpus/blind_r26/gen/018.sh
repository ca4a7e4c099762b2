#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 018_tr_static_port_in_use
python $R/gen/mkdata.py data 4 --n 1000
# a stale store from an earlier job still holds the port
python -c "
import torch.distributed as d, time, datetime
s = d.TCPStore('127.0.0.1', 31180, 1, True, timeout=datetime.timedelta(seconds=600)); time.sleep(600)" &
STALE=$!
sleep 3
torchrun --nnodes 1 --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 31180 \
  $T --data data --steps 100 --log-every 10 > $RUN/console.log 2>&1
echo exit $?
kill $STALE
