#!/bin/bash
D=/work/blind/r4/runs/016_two_node_plain; mkdir -p $D; cd $D
for n in 0 1; do
timeout 90 /work/blind/venv/bin/torchrun --nnodes 2 --nproc_per_node 1 --rdzv_backend c10d --rdzv_endpoint 127.0.0.1:29761 --rdzv_id plain-1 /work/blind/r4/gen/016_two_node_plain.py > node$n.log 2>&1 &
sleep 1; done
wait; echo done >&2
