#!/bin/bash
D=/work/blind/r4/runs/013_prefetch; mkdir -p $D; cd $D
timeout 120 /work/blind/venv/bin/torchrun --nproc_per_node 3 --master_port 29731 /work/blind/r4/gen/013_prefetch.py > console.log 2>&1
echo "exit $?" >&2
