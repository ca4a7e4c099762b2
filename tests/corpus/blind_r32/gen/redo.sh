#!/bin/bash
# 004 redone: first attempt's GradScaler (fp32 grads, init_scale 2**127) never overflowed -> replaced with autocast fp16, init_scale 2**24
set -x
cd /work/blind/r32
export OMP_NUM_THREADS=1 PY=/work/blind/venv/bin/python TR=/work/blind/venv/bin/torchrun G=/work/blind/r32/gen SLURM_CONF=/work/blind/r32/slurm/slurm.conf
R=runs
rm -rf $R/004; mkdir -p $R/004; MODE=fp16 STEPS=70 timeout 110 $TR --nproc-per-node 2 --master-port 38044 --log-dir $R/004/logs --tee 3 $G/train.py > /tmp/r32_004_console.log 2>&1; echo "004 rc=$?"
