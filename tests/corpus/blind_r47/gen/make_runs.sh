#!/bin/bash
# Regenerate r47 runs: bash make_runs.sh 001 002 ...  (all when no argument). Needs the private Slurm for srun/sbatch runs.
G=/work/blind/r47/set/gen
R=/work/blind/r47/set/runs
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
T=$G/train.py
W=/tmp/r47w; mkdir -p $W $G/side
source /work/blind/slurm47/env.sh
export MASTER_ADDR=127.0.0.1 PYTHONUNBUFFERED=1
prep() { rm -rf $R/$1; mkdir -p $R/$1; cd $R/$1; }
descend() { local p=$1; for c in $(ps -o pid= --ppid $p); do descend $c; done; echo $p; }
waitjob() { while squeue -h -j $1 2>/dev/null | grep -q .; do sleep 2; done; }

r001() { prep 001; mkfifo /tmp/r47w/manifest.fifo 2>/dev/null
  R47_CASE=s1 R47_BAD=2 R47_AT=8 R47_TIMEOUT=25 R47_FIFO=/tmp/r47w/manifest.fifo \
  timeout 170 $TR --nproc-per-node 4 --master-port 56101 $T > console.log 2>&1; }
r002() { prep 002; R47_STEPS=60 timeout 170 $TR --nproc-per-node 4 --master-port 56102 $T > console.log 2>&1; }
r003() { prep 003; R47_CASE=l2 R47_BAD=5 R47_AT=12 R47_TIMEOUT=30 R47_LOG=logging TORCH_CPP_LOG_LEVEL=INFO \
  timeout 170 $TR --nproc-per-node 8 --master-port 56103 --log-dir logs --tee 3 $T > console.log 2>&1; }
r004() { prep 004; R47_CASE=z3 R47_BAD=4 R47_AT=10 R47_TIMEOUT=40 R47_LOG=json R47_FH=30 MASTER_PORT=56104 \
  timeout 170 srun -n 6 --label --kill-on-bad-exit=1 $PY $T > console.log 2>&1; }
r005() { prep 005; R47_CASE=x7 R47_BAD=3 R47_AT=15 R47_LOG=trainer R47_FH=600 R47_WORLD=8 MASTER_PORT=56105 \
  timeout 170 $PY $G/spawn_main.py > console.log 2>&1; }
r006() { prep 006; R47_LOG=json R47_NOISE=1 R47_STEPS=50 MASTER_PORT=56106 \
  timeout 170 srun -n 6 --label $PY $T > console.log 2>&1; }
r007() { prep 007; R47_CASE=q3 R47_BAD=2 R47_AT=9 R47_LOG=logging \
  timeout 170 $TR --nproc-per-node 4 --master-port 56107 --log-dir torchrun-logs $T > console.log 2>&1; }
r008() { prep 008; R47_CASE=e4 R47_BAD=3 R47_AT=12 R47_STEPS=40 R47_TIMEOUT=30 \
  timeout 170 $TR --nproc-per-node 4 --master-port 56108 $T > console.log 2>&1; }
r009() { prep 009; R47_CASE=m1 R47_BAD=1 R47_AT=7 R47_TIMEOUT=30 R47_NODDP=1 TORCH_DISTRIBUTED_DEBUG=DETAIL \
  timeout 170 $TR --nproc-per-node 4 --master-port 56109 $T > console.log 2>&1; }
r010() { prep 010; R47_LOG=tqdm R47_STEPS=80 R47_WORLD=4 MASTER_PORT=56110 timeout 170 $PY $G/spawn_main.py > console.log 2>&1; }
r011() { prep 011; R47_CASE=m2 R47_BAD=5 R47_AT=6 R47_TIMEOUT=30 R47_LOG=logging MASTER_PORT=56111 \
  timeout 170 srun -n 6 -o task-%t.out $PY $T > console.log 2>&1; }
r012() { prep 012; R47_CASE=t3 R47_BAD=2 R47_AT=10 R47_TIMEOUT=30 R47_LOG=logging \
  timeout 170 $TR --nproc-per-node 4 --master-port 56112 --tee 3 $T > console.log 2>&1; }
r013() { prep 013; mkdir -p /tmp/r47data; for i in 0 1 2 3 4 5 7; do : > /tmp/r47data/shard-0000$i-of-00008.bin; done
  R47_CASE=d9 R47_BAD=6 R47_AT=1 MASTER_PORT=56113 timeout 170 srun -n 8 --label --kill-on-bad-exit=1 $PY $T > console.log 2>&1; }
r014() { prep 014; mkdir -p host-a host-b
  R47_LOG=trainer R47_STEPS=50 timeout 170 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:56114 --rdzv-id job14 --node-rank 0 $T > host-a/console.log 2>&1 &
  R47_LOG=trainer R47_STEPS=50 timeout 170 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:56114 --rdzv-id job14 --node-rank 1 $T > host-b/console.log 2>&1; wait; }
r015() { prep 015; R47_CASE=h2 R47_BAD=3 R47_AT=14 R47_LOG=trainer \
  timeout 170 $TR --nproc-per-node 4 --master-port 56115 --log-dir logs --tee 3 $T > console.log 2>&1; }
r016() { prep 016; R47_CASE=n6 R47_BAD=1 R47_AT=11 R47_LOG=json R47_WORLD=4 MASTER_PORT=56116 timeout 170 $PY $G/spawn_main.py > console.log 2>&1; }
r017() { prep 017; mkdir -p /tmp/r47ck; mountpoint -q /tmp/r47ck && umount /tmp/r47ck; mount -t tmpfs -o size=3m tmpfs /tmp/r47ck
  R47_CKPT=/tmp/r47ck/run7 R47_EVERY=5 R47_HID=8192 R47_LOG=trainer R47_STEPS=40 \
  timeout 170 $TR --nproc-per-node 4 --master-port 56117 $T > console.log 2>&1; umount /tmp/r47ck; }
r018() { prep 018; R47_LOG=logging R47_STEPS=150 R47_SLEEP=0.02 R47_NOISE=1 R47_NODDP=1 TORCH_DISTRIBUTED_DEBUG=DETAIL TORCH_CPP_LOG_LEVEL=INFO \
  timeout 170 $TR --nproc-per-node 8 --master-port 56118 --log-dir logs --tee 3 $T > console.log 2>&1; }
r019() { prep 019; mkdir -p /tmp/r47res; R47_CKPT=/tmp/r47res R47_EVERY=5 R47_STEPS=5 R47_WORLD=2 MASTER_PORT=56119 $PY $G/spawn_main.py > /dev/null 2>&1
  head -c 1500 /tmp/r47res/step_000005.pt > /tmp/r47res/last.pt
  R47_CKPT=/tmp/r47res R47_RESUME=/tmp/r47res/last.pt R47_LOG=logging MASTER_PORT=56129 \
  timeout 170 srun -n 6 -o task-%t.out $PY $T > console.log 2>&1; }
r020() { prep 020; mkdir -p host-a host-b
  R47_CASE=g8 R47_BAD=3 R47_AT=9 timeout 170 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:56120 --rdzv-id job20 $T > host-a/console.log 2>&1 &
  sleep 1; R47_CASE=g8 R47_BAD=3 R47_AT=9 timeout 170 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:56120 --rdzv-id job20 $T > host-b/console.log 2>&1; wait; }
r021() { prep 021; mkdir -p host-a host-b host-c
  for h in a b c; do R47_STEPS=400 R47_TIMEOUT=30 R47_LOG=logging timeout 170 $TR --nnodes 3 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:56121 --rdzv-id job21 --node-rank $([ $h = a ] && echo 0 || ([ $h = b ] && echo 1 || echo 2)) $T > host-$h/console.log 2>&1 & eval pid_$h=$!; sleep 0.5; done
  sleep 35; kill -9 $(descend $pid_c); wait; }
r022() { prep 022; mkdir -p host-a host-b host-c
  for h in a b c; do R47_STEPS=40 R47_LOG=print timeout 170 $TR --nnodes 3 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:56122 --rdzv-id job22 --log-dir host-$h/logs --redirects 3 $T > host-$h/console.log 2>&1 & sleep 0.5; done; wait; }
r023() { prep 023; timeout 170 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:56123 --rdzv-id job23 --rdzv-conf join_timeout=30 $T > console.log 2>&1; }
r024() { prep 024; $PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',56124));s.listen();time.sleep(60)" & local hold=$!; sleep 1
  timeout 170 $TR --nproc-per-node 4 --master-port 56124 $T > console.log 2>&1; kill $hold; }
r025() { prep 025; cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J mt-pretrain
#SBATCH -n 8
#SBATCH -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=56125 R47_LOG=trainer R47_OVF=1 R47_NOISE=1 R47_STEPS=60
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun --kill-on-bad-exit=1 $PY $T
EOS
  jid=$(sbatch --parsable job.sbatch); waitjob $jid; rm job.sbatch; }
r026() { prep 026; cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J mt-pretrain
#SBATCH -n 8
#SBATCH -t 1
#SBATCH -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=56126 R47_LOG=logging R47_STEPS=100000 R47_SLEEP=0.2
srun -l $PY $T
EOS
  jid=$(sbatch --parsable job.sbatch); waitjob $jid; rm job.sbatch; }
r027() { prep 027; cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J mt-pretrain
#SBATCH -n 4
#SBATCH -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=56127 R47_STEPS=100000 R47_SLEEP=0.1
srun $PY $T
EOS
  jid=$(sbatch --parsable job.sbatch); sleep 40; scancel $jid; waitjob $jid; rm job.sbatch; }
r028() { prep 028; R47_CASE=w5 R47_BAD=5 R47_AT=3600 R47_STEPS=600 R47_SLEEP=0.005 \
  timeout 170 $TR --nproc-per-node 8 --master-port 56128 $T > console.log 2>&1; }
r029() { prep 029; $PY $G/watch_mem.py cgroup 2 900 2> $G/side/watch029.txt &
  R47_CASE=mem R47_BAD=2 R47_AT=15 R47_STEPS=60 R47_LOG=json MASTER_PORT=56130 \
  timeout 170 srun -n 4 --label --kill-on-bad-exit=1 $PY $T > console.log 2>&1; wait; }
r030() { prep 030; $PY $G/watch_mem.py kill 4 900 2> $G/side/watch030.txt &
  R47_CASE=mem R47_BAD=4 R47_AT=15 R47_STEPS=60 R47_LOG=logging \
  timeout 170 $TR --nproc-per-node 6 --master-port 56131 --log-dir logs --redirects 3 $T > console.log 2>&1; wait; }
r031() { prep 031; R47_SKIPERR=1 R47_AT=20 R47_STEPS=60 R47_NOISE=1 R47_LOG=logging \
  timeout 170 $TR --nproc-per-node 4 --master-port 56132 $T > console.log 2>&1; }
r032() { prep 032; R47_STEPS=400 R47_SLEEP=0.01 MASTER_PORT=56133 timeout 170 srun -n 8 --label --kill-on-bad-exit=1 $PY $T > console.log 2>&1; }
r033() { prep 033; mkdir -p fr; R47_CASE=z3 R47_BAD=6 R47_AT=10 R47_TIMEOUT=30 TORCH_FR_BUFFER_SIZE=2000 TORCH_FR_DUMP_TEMP_FILE=$R/033/fr/trace_ TORCH_CPP_LOG_LEVEL=INFO \
  timeout 170 $TR --nproc-per-node 8 --master-port 56134 $T > console.log 2>&1; }
r034() { prep 034; R47_LOG=logging R47_STEPS=50 R47_WORLD=8 R47_NOISE=1 MASTER_PORT=56135 timeout 170 $PY $G/spawn_main.py > console.log 2>&1; }

r035() { prep 035; mkdir -p /tmp/r47ck; mountpoint -q /tmp/r47ck && umount /tmp/r47ck; mount -t tmpfs -o size=3m tmpfs /tmp/r47ck
  R47_CKPT=/tmp/r47ck/run35 R47_EVERY=4 R47_HID=8192 R47_LR=0.0005 R47_LOG=json R47_STEPS=40 \
  timeout 170 $TR --nproc-per-node 4 --master-port 56136 --tee 3 $T > console.log 2>&1; umount /tmp/r47ck; }

ALL="001 002 003 004 005 006 007 008 009 010 011 012 013 014 015 016 017 018 019 020 021 022 023 024 025 026 027 028 029 030 031 032 033 034 035"
for n in ${@:-$ALL}; do s=$(date +%s); ( r$n ); echo "run $n done in $(( $(date +%s) - s ))s"; done
