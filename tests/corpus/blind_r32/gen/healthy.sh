#!/bin/bash
# healthy runs 002-012 (001 done interactively: MODE=plain NOISE=0.3 STEPS=120 torchrun 2 procs, port 38001)
set -x
cd /work/blind/r32
export OMP_NUM_THREADS=1 PY=/work/blind/venv/bin/python TR=/work/blind/venv/bin/torchrun G=/work/blind/r32/gen SLURM_CONF=/work/blind/r32/slurm/slurm.conf
R=runs
# 002 spikes, srun --label 3 tasks
mkdir -p $R/002; MODE=spikes STEPS=80 MASTER_ADDR=127.0.0.1 MASTER_PORT=38002 timeout 110 srun --label -n 3 $PY $G/train.py > $R/002/console.log 2>&1; echo "002 rc=$?"
# 003 eval loss rising, mp.spawn
mkdir -p $R/003; MODE=evalrise STEPS=80 SPAWN=2 MASTER_PORT=38003 LOG_ALL=0 timeout 110 $PY $G/train.py > $R/003/console.log 2>&1; echo "003 rc=$?"
# 004 fp16 GradScaler overflow steps, torchrun --log-dir --tee 3, hand over log dir
mkdir -p $R/004; MODE=fp16 STEPS=70 timeout 110 $TR --nproc-per-node 2 --master-port 38004 --log-dir $R/004/logs --tee 3 $G/train.py > /tmp/r32_004_console.log 2>&1; echo "004 rc=$?"
# 005 NaN batch skipped, torchrun 3 procs
mkdir -p $R/005; MODE=nan_skip STEPS=60 timeout 110 $TR --nproc-per-node 3 --master-port 38005 $G/train.py > $R/005/console.log 2>&1; echo "005 rc=$?"
# 006 caught exceptions w/ tracebacks, sbatch, per-rank files
mkdir -p $R/006; cd $R/006; sbatch -W -n 2 -o sbatch_%j.out --export=ALL,MODE=optional_file,STEPS=60,MASTER_ADDR=127.0.0.1,MASTER_PORT=38006 --wrap "srun -o rank_%t.out -e rank_%t.err $PY $G/train.py"; echo "006 rc=$?"; cd /work/blind/r32
# 007 warnings + config dump, torchrun 2
mkdir -p $R/007; MODE=warnings STEPS=60 PYTHONWARNINGS=always timeout 110 $TR --nproc-per-node 2 --master-port 38007 $G/train.py > $R/007/console.log 2>&1; echo "007 rc=$?"
# 008 resume from checkpoint then finish
mkdir -p $R/008 /tmp/r32ck008; MODE=resume_ok STEPS=40 CKPT=/tmp/r32ck008 timeout 110 $TR --nproc-per-node 2 --master-port 38008 $G/train.py > $R/008/part1.log 2>&1; echo "008a rc=$?"
MODE=resume_ok STEPS=100 CKPT=/tmp/r32ck008 timeout 110 $TR --nproc-per-node 2 --master-port 38008 $G/train.py > $R/008/part2.log 2>&1; echo "008b rc=$?"
# 009 long run, tar.gz of torchrun log dir
mkdir -p $R/009; MODE=long STEPS=1600 NOISE=0.2 timeout 115 $TR --nproc-per-node 2 --master-port 38009 --log-dir /tmp/r32_009/logs --tee 3 $G/train.py > /tmp/r32_009_console.log 2>&1; echo "009 rc=$?"; tar -C /tmp/r32_009 -czf $R/009/logs.tar.gz logs
# 010 plateau at high loss, srun no label
mkdir -p $R/010; MODE=plateau STEPS=100 MASTER_ADDR=127.0.0.1 MASTER_PORT=38010 timeout 110 srun -n 2 $PY $G/train.py > $R/010/console.log 2>&1; echo "010 rc=$?"
# 011 noisy + spikes, last 200 lines
mkdir -p $R/011; MODE=spikes NOISE=0.25 STEPS=150 timeout 110 $TR --nproc-per-node 2 --master-port 38011 $G/train.py > /tmp/r32_011_full.log 2>&1; echo "011 rc=$?"; tail -200 /tmp/r32_011_full.log > $R/011/tail.log
# 012 fp16 overflow via mp.spawn 3 procs, with warnings
mkdir -p $R/012; MODE=fp16 STEPS=60 SPAWN=3 MASTER_PORT=38012 PYTHONWARNINGS=always timeout 110 $PY $G/train.py > $R/012/console.log 2>&1; echo "012 rc=$?"
