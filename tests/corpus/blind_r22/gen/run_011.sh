#!/bin/bash
# mp.spawn, stdout+stderr -> run.log
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/011_torn_shard_rank2; rm -rf $D; mkdir -p $D; cd $D
/work/blind/venv/bin/python $G/mkckpt_011.py /work/blind/r22/work/ckpt011
OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/python $G/train_011.py /work/blind/r22/work/ckpt011 > run.log 2>&1
echo "rc=$?"
