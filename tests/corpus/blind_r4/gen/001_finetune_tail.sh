#!/bin/bash
D=/work/blind/r4/runs/001_finetune_tail; mkdir -p $D; cd $D; rm -rf logs
timeout 90 /work/blind/venv/bin/torchrun --nproc_per_node 3 --master_port 29611 --log-dir $D/logs --tee 3 /work/blind/r4/gen/001_finetune_tail.py > console.log 2>&1
echo "exit $?" >&2
