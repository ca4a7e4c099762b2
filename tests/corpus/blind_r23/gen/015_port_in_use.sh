#!/bin/bash
# 015: a previous job's process still holds 127.0.0.1:28151 (here: a python
# socket listener standing in for a stale trainer); the new torchrun job is
# launched with --master-port 28151 -> the store cannot bind (EADDRINUSE).
set -u
R=/work/blind/r23; RUN=$R/runs/015_port_in_use; rm -rf $RUN; mkdir -p $RUN
cd $R/work
/work/blind/venv/bin/python -c "
import socket,time
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('0.0.0.0',28151)); s.listen(); time.sleep(90)" &
HOLD=$!
sleep 2
timeout 120 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 28151 \
  $R/gen/train_lm.py --data-dir data/base --steps 300 --timeout 30 > $RUN/train.log 2>&1
echo rc=$?
kill $HOLD
