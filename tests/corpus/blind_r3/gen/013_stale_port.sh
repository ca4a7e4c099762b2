#!/bin/bash
# torchrun --master-port 29513 while a leftover process holds that port
R=/work/blind/r3/runs/013_stale_port; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job013; mkdir -p $J; cp /work/blind/r3/gen/013_stale_port.py $J/train_cls.py
cd $J
# leftover "old job" listener
/work/blind/venv/bin/python -c "
import socket,time
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('0.0.0.0',29513)); s.listen(); time.sleep(120)" &
STALE=$!
sleep 1
MASTER_ADDR=127.0.0.1 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 2 --master-port 29513 train_cls.py > $R/console.log 2>&1
echo "exit $?"
kill $STALE
