#!/bin/bash
# A stale process from a "previous job" (a leftover TCPStore server) still holds port 29620.
# torchrun (2 workers, static rendezvous on --master-port 29620) is launched on the same node.
set -u
RUN=/work/blind/r2/runs/010_port_in_use
rm -rf $RUN; mkdir -p $RUN; cd $RUN
export OMP_NUM_THREADS=1
/work/blind/venv/bin/python -c "
import time, torch.distributed as d
from datetime import timedelta
s = d.TCPStore('0.0.0.0', 29620, 1, True, timeout=timedelta(seconds=300))
time.sleep(120)" > /dev/null 2>&1 &
STALE=$!
sleep 4
/work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29620 \
    /work/blind/r2/gen/010_port_in_use.py > console.log 2>&1
echo "exit code $?"
kill $STALE
