#!/bin/bash
D=/work/blind/r4/runs/009_mixed_data; mkdir -p $D; cd $D
timeout 90 /work/blind/venv/bin/torchrun --nproc_per_node 3 --master_port 29691 /work/blind/r4/gen/009_mixed_data.py > console.log 2>&1
echo "exit $?" >&2
