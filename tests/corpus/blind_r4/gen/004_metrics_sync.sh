#!/bin/bash
D=/work/blind/r4/runs/004_metrics_sync; mkdir -p $D; cd $D
export TORCH_DISTRIBUTED_DEBUG=DETAIL
timeout 90 /work/blind/venv/bin/torchrun --nproc_per_node 3 --master_port 29641 /work/blind/r4/gen/004_metrics_sync.py > console.log 2>&1
echo "exit $?" >&2
