#!/bin/bash
# torchrun single node, --master_port=27130 already taken by a leftover process; console -> torchrun.log
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/013_master_port_taken; rm -rf $D; mkdir -p $D; cd $D
/work/blind/venv/bin/python $G/stale_listener.py 27130 90 & L=$!
sleep 1
OMP_NUM_THREADS=1 timeout 120 /work/blind/venv/bin/torchrun --nnodes=1 --nproc_per_node=2 --master_addr=127.0.0.1 --master_port=27130 $G/train_012.py > torchrun.log 2>&1
echo "rc=$?"; kill $L
