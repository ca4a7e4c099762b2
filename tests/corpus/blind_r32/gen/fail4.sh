#!/bin/bash
set -x
cd /work/blind/r32
export OMP_NUM_THREADS=1 PY=/work/blind/venv/bin/python TR=/work/blind/venv/bin/torchrun G=/work/blind/r32/gen SLURM_CONF=/work/blind/r32/slurm/slurm.conf
R=runs
# 033 checkpoint (legacy serialization) to a full 2M tmpfs; torchrun --tee, last 200 lines handed over
mkdir -p $R/033 /tmp/r32ck033; mount -t tmpfs -o size=2M tmpfs /tmp/r32ck033
MODE=plain NOISE=0.2 STEPS=80 CKPT=/tmp/r32ck033 CKPT_PAD=1000000 LEGACY_SAVE=1 timeout 110 $TR --nproc-per-node 2 --master-port 38033 --log-dir /tmp/r32_033 --tee 3 $G/train.py > /tmp/r32_033_full.log 2>&1; echo "033 rc=$?"; df -h /tmp/r32ck033; umount /tmp/r32ck033; tail -200 /tmp/r32_033_full.log > $R/033/tail.log
# 034 NaN raised on rank 2 of 3, sbatch with per-rank files (directory handed over)
mkdir -p $R/034; cd $R/034; sbatch -W -n 3 -o slurm-%j.out --export=ALL,MODE=nan_raise,STEPS=60,NOISE=0.2,MASTER_ADDR=127.0.0.1,MASTER_PORT=38034 --wrap "srun -o rank_%t.log $PY $G/train.py"; echo "034 rc=$?"; cd /work/blind/r32
