#!/bin/bash
R=/work/blind/r12/runs/015_compiled_ckpt_prefix
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
A="--nnodes 2 --nproc-per-node 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:32115 --rdzv-id ft-stage2"
timeout 60 /work/blind/venv/bin/torchrun $A /work/blind/r12/gen/015_compiled_ckpt_prefix.py > $R/nodeA.log 2>&1 &
timeout 60 /work/blind/venv/bin/torchrun $A /work/blind/r12/gen/015_compiled_ckpt_prefix.py > $R/nodeB.log 2>&1
echo "exit=$?" >> $R/nodeB.log
wait %1; echo "exit=$?" >> $R/nodeA.log
rm -rf $R/stage1
