#!/bin/bash
set -x
cd /work/blind/r32
export OMP_NUM_THREADS=1 PY=/work/blind/venv/bin/python TR=/work/blind/venv/bin/torchrun G=/work/blind/r32/gen SLURM_CONF=/work/blind/r32/slurm/slurm.conf
R=runs
# 013 rank 1 blocks reading a FIFO nobody writes; others gloo timeout. torchrun 3 procs, console
mkdir -p $R/013; rm -f /tmp/r32fifo13; mkfifo /tmp/r32fifo13
MODE=block_read BAD=1 FIFO=/tmp/r32fifo13 STEPS=60 PG_TIMEOUT=20 timeout 110 $TR --nproc-per-node 3 --master-port 38013 $G/train.py > $R/013/console.log 2>&1; echo "013 rc=$?"
# 014 NaN raised on rank 2, srun --label 3 tasks
mkdir -p $R/014; MODE=nan_raise STEPS=60 MASTER_ADDR=127.0.0.1 MASTER_PORT=38014 timeout 110 srun --label -n 3 $PY $G/train.py > $R/014/console.log 2>&1; echo "014 rc=$?"
# 015 divergence, run finishes exit 0, rank0-only logging, torchrun
mkdir -p $R/015; MODE=diverge STEPS=90 LOG_ALL=0 timeout 110 $TR --nproc-per-node 2 --master-port 38015 $G/train.py > $R/015/console.log 2>&1; echo "015 rc=$?"
# 016 SIGKILL of rank 1 from outside, torchrun --log-dir (no tee), hand over log dir + console
mkdir -p $R/016; (MODE=plain STEPS=2000 STEP_SLEEP=0.02 timeout 110 $TR --nproc-per-node 2 --master-port 38016 --log-dir $R/016/logs $G/train.py > $R/016/console.log 2>&1; echo "016 rc=$?") &
sleep 14; P=$(grep -h "rank=1 init done" -r $R/016/logs | sed 's/.*pid=//'); echo "killing rank1 pid $P"; kill -9 $P; wait
# 017 ulimit -v (RLIMIT_AS) on rank 1 + growing allocations -> CPU allocator failure; sbatch
mkdir -p $R/017; cd $R/017; sbatch -W -n 2 -o slurm-%j.out --export=ALL,MODE=rss_leak,STEPS=60,AS_LIMIT=3000000000,MASTER_ADDR=127.0.0.1,MASTER_PORT=38017 --wrap "srun $PY $G/train.py"; echo "017 rc=$?"; cd /work/blind/r32
