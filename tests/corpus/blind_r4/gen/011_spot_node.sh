#!/bin/bash
# the "spot reclaim": SIGTERM delivered to the torchrun agent ~12 s into training
D=/work/blind/r4/runs/011_spot_node; mkdir -p $D; cd $D
/work/blind/venv/bin/torchrun --nproc_per_node 2 --master_port 29711 /work/blind/r4/gen/011_spot_node.py > console.log 2>&1 &
P=$!
sleep 14; kill -TERM $P; wait $P; echo "exit $?" >&2
