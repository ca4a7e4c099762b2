#!/bin/bash
D=/work/blind/r5/runs/009_spot; mkdir -p $D; cd $D
OMP_NUM_THREADS=1 timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint localhost:29619 --log-dir $D/logs /work/blind/r5/gen/009_spot.py > console.log 2>&1 &
P=$!
sleep 12
# spot instance reclaim: the node agent gets SIGTERM
kill -TERM $(pgrep -P $P -f torchrun | head -1)
wait $P; echo "exit=$?"
