#!/bin/bash
D=/work/blind/r4/runs/014_sweep_small; mkdir -p $D; cd $D
timeout 90 /work/blind/venv/bin/torchrun --nproc_per_node 2 --master_port 29741 /work/blind/r4/gen/014_sweep_small.py > console.log 2>&1
echo "exit $?" >&2
