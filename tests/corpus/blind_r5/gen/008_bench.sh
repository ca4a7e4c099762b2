#!/bin/bash
D=/work/blind/r5/runs/008_bench; mkdir -p $D; cd $D
# a previous job's store is still bound to the port
/work/blind/venv/bin/python -c "import socket,time;s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);s.bind(('0.0.0.0',29618));s.listen();time.sleep(40)" & H=$!
sleep 1
OMP_NUM_THREADS=1 timeout 60 /work/blind/venv/bin/torchrun --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29618 /work/blind/r5/gen/008_bench.py > console.log 2>&1
echo "exit=$?"; kill $H; wait
