#!/bin/bash
R=/work/blind/r7/runs/013_port_in_use; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
# a stale process from an earlier, "finished" experiment still holds the port (e.g. a leaked TCPStore server)
/work/blind/venv/bin/python -c "
import socket,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('0.0.0.0',29813)); s.listen(); time.sleep(120)" &
BLOCK=$!
sleep 1
{ echo "+ torchrun --nnodes=1 --nproc-per-node=4 --master-addr=127.0.0.1 --master-port=29813 train_small.py"
  timeout 90 /work/blind/venv/bin/torchrun --nnodes=1 --nproc-per-node=4 --master-addr=127.0.0.1 --master-port=29813 \
     /work/blind/r7/gen/013_port_in_use.py; echo "exit status $?"; } > $R/launch.log 2>&1
kill $BLOCK
