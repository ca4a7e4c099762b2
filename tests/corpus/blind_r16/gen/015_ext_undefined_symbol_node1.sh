#!/bin/bash
# two torchrun agents (node0: 2 workers, node1: 1 worker); node1's PYTHONPATH holds a stale compiled
# fused_adam_ext .so with an undefined c10 symbol; node0 has the working (pure python) build.
NAME=015_ext_undefined_symbol_node1; source /work/blind/r16/gen/common.sh
X=/work/blind/r16/mnt/015; mkdir -p $X/node0/site $X/node1/site
echo 'def step(*a, **k): pass' > $X/node0/site/fused_adam_ext.py
gcc -shared -fPIC -o $X/node1/site/fused_adam_ext.cpython-311-x86_64-linux-gnu.so $GEN/ext_src/fused_adam_ext.c
export EXT_MODULE=fused_adam_ext STEPS=40 LOGFMT=logging
PYTHONPATH=$X/node0/site $TORCHRUN --nnodes=2 --node-rank=0 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-id=ft7 \
   --rdzv-endpoint=127.0.0.1:21015 $TRAIN > node0.out 2>&1 &
sleep 1
PYTHONPATH=$X/node1/site $TORCHRUN --nnodes=2 --node-rank=1 --nproc-per-node=1 --rdzv-backend=c10d --rdzv-id=ft7 \
   --rdzv-endpoint=127.0.0.1:21015 $TRAIN > node1.out 2>&1 &
wait
rm -rf $X
