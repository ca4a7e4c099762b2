#!/bin/bash
set -x
cd /work/blind/r32
export OMP_NUM_THREADS=1 PY=/work/blind/venv/bin/python TR=/work/blind/venv/bin/torchrun G=/work/blind/r32/gen SLURM_CONF=/work/blind/r32/slurm/slurm.conf
R=runs
# 035 caught exceptions/tracebacks + fallback, torchrun --log-dir --tee 3 3 procs, tar.gz of log dir
mkdir -p $R/035; MODE=optional_file NOISE=0.1 STEPS=80 timeout 110 $TR --nproc-per-node 3 --master-port 38035 --log-dir /tmp/r32_035/logs --tee 3 $G/train.py > /tmp/r32_035_console.log 2>&1; echo "035 rc=$?"; tar -C /tmp/r32_035 -czf $R/035/run_logs.tar.gz logs
# 036 nan-skip + warnings under sbatch/srun --label, whole slurm output
mkdir -p $R/036; cd $R/036; sbatch -W -n 2 -o slurm-%j.out --export=ALL,MODE=nan_skip,NOISE=0.3,STEPS=120,PYTHONWARNINGS=always,MASTER_ADDR=127.0.0.1,MASTER_PORT=38036 --wrap "srun --label $PY $G/train.py"; echo "036 rc=$?"; cd /work/blind/r32
