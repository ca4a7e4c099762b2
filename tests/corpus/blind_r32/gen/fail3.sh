#!/bin/bash
set -x
cd /work/blind/r32
export OMP_NUM_THREADS=1 PY=/work/blind/venv/bin/python TR=/work/blind/venv/bin/torchrun G=/work/blind/r32/gen SLURM_CONF=/work/blind/r32/slurm/slurm.conf
R=runs
# 024 time limit hit while hung: sbatch --time=1, rank 0 sleeps forever at step 15, pg timeout 600s
mkdir -p $R/024; cd $R/024; sbatch -W -n 2 --time=1 -o slurm-%j.out --export=ALL,MODE=sleep_hang,STEPS=100,PG_TIMEOUT=600,MASTER_ADDR=127.0.0.1,MASTER_PORT=38024 --wrap "srun --label $PY $G/train.py"; echo "024 rc=$?"; cd /work/blind/r32
# 025 scancel of a healthy-running job; sbatch
mkdir -p $R/025; cd $R/025; J=$(sbatch --parsable -n 2 -o slurm-%j.out --export=ALL,MODE=plain,STEPS=3000,STEP_SLEEP=0.02,MASTER_ADDR=127.0.0.1,MASTER_PORT=38025 --wrap "srun $PY $G/train.py"); sleep 25; scancel $J; sleep 8; scontrol show job $J | grep -E "JobState|ExitCode"; cd /work/blind/r32
# 026 checkpoint writer hangs (target is a FIFO), others time out at barrier; torchrun 3, console
mkdir -p $R/026 /tmp/r32ck026; rm -f /tmp/r32ck026/step.pt; mkfifo /tmp/r32ck026/step.pt
MODE=ckpt_hang STEPS=60 PG_TIMEOUT=20 CKPT=/tmp/r32ck026 timeout 110 $TR --nproc-per-node 3 --master-port 38026 $G/train.py > $R/026/console.log 2>&1; echo "026 rc=$?"
# 027 resume from truncated checkpoint; srun --label
mkdir -p $R/027 /tmp/r32ck027; MODE=plain STEPS=20 CKPT=/tmp/r32ck027 timeout 100 $TR --nproc-per-node 2 --master-port 38027 $G/train.py > /tmp/r32_027_pre.log 2>&1; echo "027pre rc=$?"; ls -l /tmp/r32ck027; truncate -s 3000 /tmp/r32ck027/last.pt
MODE=resume_corrupt STEPS=60 CKPT=/tmp/r32ck027 MASTER_ADDR=127.0.0.1 MASTER_PORT=38027 timeout 110 srun --label -n 2 $PY $G/train.py > $R/027/console.log 2>&1; echo "027 rc=$?"
# 028 resume with a different hidden size; torchrun --log-dir tee, tar.gz
mkdir -p $R/028 /tmp/r32ck028; MODE=plain STEPS=20 CKPT=/tmp/r32ck028 timeout 100 $TR --nproc-per-node 2 --master-port 38028 $G/train.py > /tmp/r32_028_pre.log 2>&1; echo "028pre rc=$?"
MODE=resume_mismatch HID=96 STEPS=60 CKPT=/tmp/r32ck028 timeout 110 $TR --nproc-per-node 2 --master-port 38028 --log-dir /tmp/r32_028/logs --tee 3 $G/train.py > /tmp/r32_028_console.log 2>&1; echo "028 rc=$?"; tar -C /tmp/r32_028 -czf $R/028/logs.tar.gz logs
# 029 port already in use; torchrun console
mkdir -p $R/029; $PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',38029));s.listen();time.sleep(60)" & LP=$!; sleep 1
MODE=plain STEPS=40 timeout 110 $TR --nproc-per-node 2 --master-port 38029 $G/train.py > $R/029/console.log 2>&1; echo "029 rc=$?"; kill $LP
# 030 fd leak in dataset on rank 0 with ulimit -n 200; torchrun console
mkdir -p $R/030; (ulimit -n 200; MODE=emfile STEPS=200 timeout 110 $TR --nproc-per-node 2 --master-port 38030 $G/train.py > $R/030/console.log 2>&1; echo "030 rc=$?")
# 031 divergence, srun --label, hand over last 200 lines
mkdir -p $R/031; MODE=diverge STEPS=120 MASTER_ADDR=127.0.0.1 MASTER_PORT=38031 timeout 110 srun --label -n 2 $PY $G/train.py > /tmp/r32_031_full.log 2>&1; echo "031 rc=$?"; tail -200 /tmp/r32_031_full.log > $R/031/tail.log
# 032 rank 0 silently sleeps at step 15, others gloo-timeout; srun (no label), 3 tasks
mkdir -p $R/032; MODE=sleep_hang STEPS=60 PG_TIMEOUT=20 MASTER_ADDR=127.0.0.1 MASTER_PORT=38032 timeout 100 srun -n 3 $PY $G/train.py > $R/032/console.log 2>&1; echo "032 rc=$?"
