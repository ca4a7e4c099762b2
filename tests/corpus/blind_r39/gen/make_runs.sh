#!/usr/bin/env bash
# Regenerates every run: bash make_runs.sh CASE [CASE...]   (CASE letters as below; run numbers in RUNS)
# Needs root (tmpfs mounts, memory cgroup v1) and the private Slurm (bash /work/blind/slurm39/start.sh).
set -u
G=/work/blind/r39/set/gen; W=/work/blind/r39/work; R=/work/blind/r39/set/runs
PY=/work/blind/venv/bin/python; TR=/work/blind/venv/bin/torchrun
export PATH=/work/blind/venv/bin:$PATH
source /work/blind/slurm39/env.sh
CGROOT=$(awk -F: '$2=="memory"{print "/sys/fs/cgroup/memory"$3}' /proc/self/cgroup)
declare -A RUNS=( [A]=014 [B]=003 [D]=021 [E]=009 [F]=027 [G]=001 [H]=018 [I]=011 [J]=025 [L]=006 [M]=030 [N]=016
  [O]=008 [P]=023 [Q]=004 [R]=029 [S]=012 [T]=019 [U]=032 [V]=015 [W]=026 [X]=005 [Z]=028 [AB]=020 [AE]=010 [Y]=024
  [H1]=002 [H2]=017 [H3]=013 [H4]=022 [H5]=031 [H6]=007 )
memcg() { mkdir -p "$CGROOT/$1"; echo "$2" > "$CGROOT/$1/memory.limit_in_bytes"; echo "$CGROOT/$1"; }
wait_job() { while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 2; done; }

case_A() { # ValueError on a bad sample in rank 2's shard; console + log-dir
  $PY $G/makedata.py data.jsonl 200 '42:ids="12 7 3O 9"'
  timeout -s KILL 170 $TR --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:48101 --log-dir $D/logs --tee 3 \
    $G/train.py --data data.jsonl --steps 20 --log-style logging > $D/console.log 2>&1; }
case_B() { # DDP: aux head unused on rank 1 only (its samples carry no aux targets)
  $PY $G/makedata.py data.jsonl 200 'r1m2:aux=false'
  timeout -s KILL 170 $G/t4.sh 2 48102 $G/train.py --data data.jsonl --steps 20 --aux-head --pg-timeout 30 > $D/console.log 2>&1; }
case_D() { # vocabulary built from the local shard: rank 3's shard has a bigger id -> DDP model mismatch; sbatch + srun --label
  $PY $G/makedata.py data.jsonl 200 '7:ids="99 3 4"'
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 4 -o $D/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=48104
srun --label $PY $G/train.py --data data.jsonl --steps 20 --vocab-from-data --log-style logging
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; }
case_E() { # rank 1 skips backward on a non-finite loss; log-dir without --tee: output only under logs/
  $PY $G/makedata.py data.jsonl 200 '21:weight=1e39'
  timeout -s KILL 170 $TR --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:48105 --log-dir $D/logs --redirects 3 \
    $G/train.py --data data.jsonl --steps 12 --skip-nonfinite local --log-style logging --pg-timeout 30 > $D/console.log 2>&1; }
case_F() { # DataLoader worker of rank 2 OOM-killed by a memory cgroup (v1) limit
  $PY $G/makedata.py data.jsonl 200 '18:blob_mb=900'
  cg=$(memcg dlw_F 500M)
  timeout -s KILL 170 $G/t4.sh 4 48106 $G/train.py --data data.jsonl --steps 12 --workers 2 --feature-cache --worker-mem-cgroup $cg > $D/console.log 2>&1
  rmdir $cg 2>/dev/null; }
case_G() { # KeyError inside a DataLoader worker on rank 1; sbatch + srun --label
  $PY $G/makedata.py data.jsonl 200 '9:label=-'
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 4 -o $D/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=48107
echo "job \$SLURM_JOB_ID on \$(hostname) tasks=\$SLURM_NTASKS"
srun --label $PY $G/train.py --data data.jsonl --steps 20 --workers 2 --log-style json
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; }
case_H() { # rank 0's DataLoader worker blocks on the shard lock held by a stuck packer; timeout=15
  $PY $G/makedata.py data.jsonl 200; mkdir -p shards; for r in 0 1; do $PY $G/helpers.py shard shards/tokens_0$r.bin 200000; done
  $PY $G/helpers.py hold_lock shards/tokens_00.bin.lock 120 & lp=$!
  sleep 1
  timeout -s KILL 170 $G/t4.sh 2 48108 --log-dir $D/logs --tee 3 $G/train.py --data data.jsonl --shard-dir shards --steps 20 --workers 1 --dl-timeout 15 --log-style logging > $D/console.log 2>&1
  kill $lp; }
case_I() { # checkpoint dir on a 400k tmpfs fills up on the third save (rank 0 saves); sbatch, srun -o per task
  mkdir -p ck; mountpoint -q ck || mount -t tmpfs -o size=400k tmpfs ck
  $PY $G/makedata.py data.jsonl 200
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 4 -o $D/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=48109
srun -o $D/task-%t.out $PY $G/train.py --data data.jsonl --steps 30 --epochs 3 --hidden 2048 --ckpt-dir $W/I/ck --save-every 5 --log-style trainer
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; umount ck; }
case_J() { # read-only checkpoint mount; log-dir without --tee, @record error files
  mkdir -p ck; mountpoint -q ck || mount -t tmpfs -o ro,size=10m tmpfs ck
  $PY $G/makedata.py data.jsonl 200
  timeout -s KILL 170 $G/t4.sh 4 48110 --log-dir $D/logs $G/train.py --data data.jsonl --steps 20 --ckpt-dir $W/J/ck --save-every 8 --log-style print > $D/console.log 2>&1
  umount ck; }
case_L() { # resume from sharded checkpoint whose rank-1 shard is truncated; sbatch + srun --label
  $PY $G/makedata.py data.jsonl 200
  MASTER_ADDR=127.0.0.1 MASTER_PORT=48111 timeout 120 $PY $G/train.py --spawn 3 --data data.jsonl --steps 10 --ckpt-dir $W/L/ck --save-every 10 --sharded-ckpt > prep.log 2>&1
  truncate -s 3000 ck/step00010/shard_01.pt
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 3 -o $D/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=48112
srun --label $PY $G/train.py --data data.jsonl --steps 30 --resume $W/L/ck/step00010 --log-style logging
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; }
case_M() { # resume: checkpoint from the aux-head model loaded strictly into a model without it; rank 0 loads; mp.spawn
  $PY $G/makedata.py data.jsonl 200
  MASTER_PORT=48113 timeout 120 $PY $G/train.py --spawn 2 --data data.jsonl --steps 10 --aux-head --ckpt-dir $W/M --save-every 10 > prep.log 2>&1
  MASTER_PORT=48114 timeout -s KILL 170 $PY $G/train.py --spawn 4 --data data.jsonl --steps 30 --resume $W/M/ckpt_step00010.pt --log-style json > $D/console.log 2>&1; }
case_N() { # object-store gateway returns EIO part way through rank 3's shard upload; console + log-dir
  $PY $G/makedata.py data.jsonl 200
  mkdir -p ck gw; for r in 0 1 2; do echo 100000000 > gw/quota_$r; done; echo 150000 > gw/quota_3
  timeout -s KILL 170 $G/t4.sh 4 48115 --log-dir $D/logs --tee 3 $G/train.py --data data.jsonl --steps 30 --hidden 1024 --ckpt-dir $W/N/ck --save-every 5 --sharded-ckpt --object-store $W/N/gw --log-style logging > $D/console.log 2>&1; }
case_O() { # rank 2 enters a barrier nobody else enters (metrics writer); everyone else times out
  $PY $G/makedata.py data.jsonl 400
  timeout -s KILL 170 $G/t4.sh 4 48116 $G/train.py --data data.jsonl --steps 30 --metrics-writer 2 --pg-timeout 30 > $D/console.log 2>&1; }
case_P() { # rank 1 all_gathers where the others all_reduce (DETAIL debug segfaults DDP init on this build, so none); sbatch + srun --label
  $PY $G/makedata.py data.jsonl 200
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 4 -o $D/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=48117
srun --label $PY $G/train.py --data data.jsonl --steps 30 --gather-stats-every 3 --pg-timeout 30 --log-style logging
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; }
case_Q() { # rank 3's prefetch thread dies on a bad sample; main thread blocks on the queue; log-dir (no tee) + console
  $PY $G/makedata.py data.jsonl 200 '27:ids="4 5 x7"'
  timeout -s KILL 170 $G/t4.sh 4 48118 --log-dir $D/logs $G/train.py --data data.jsonl --steps 30 --prefetch-thread --pg-timeout 30 --log-style json > $D/console.log 2>&1; }
case_R() { # rank 1 deadlocks on its progress-hook lock (silent); the others time out; trainer-style logs
  $PY $G/makedata.py data.jsonl 200 '17:weight=12'
  timeout -s KILL 170 $G/t4.sh 4 48119 $G/train.py --data data.jsonl --steps 30 --progress-hook --pg-timeout 30 --log-style trainer > $D/console.log 2>&1; }
case_S() { # 2 agents x 4 (two "nodes", c10d rendezvous): NaN loss on rank 6
  $PY $G/makedata.py data.jsonl 400 '22:weight=NaN'
  for n in 0 1; do
    timeout -s KILL 170 $TR --nnodes 2 --node-rank $n --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:48120 --rdzv-id txt8 \
      --log-dir $D/node$n-logs --tee 3 $G/train.py --data data.jsonl --steps 20 --nan-check --log-style logging > $D/node$n.log 2>&1 &
  done; wait; }
case_T() { # 2 agents x 4: rank 5's memory-mapped token shard is truncated under it -> worker SIGBUS
  $PY $G/makedata.py data.jsonl 400; mkdir -p shards; for r in 0 1 2 3 4 5 6 7; do $PY $G/helpers.py shard shards/tokens_0$r.bin 2000000; done
  for n in 0 1; do
    SHARD_LOCKING=0 timeout -s KILL 170 $TR --nnodes 2 --node-rank $n --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:48121 --rdzv-id txt8 \
      $G/train.py --data data.jsonl --shard-dir shards --steps 40 --workers 1 --step-sleep 0.4 --log-style print > $D/node$n.log 2>&1 &
  done
  for _ in $(seq 1 80); do grep -q "step=4 " $D/node1.log 2>/dev/null && break; sleep 1; done
  truncate -s 4096 shards/tokens_05.bin; wait; }
case_U() { # 2 agents: node 1 given the wrong rendezvous port; rendezvous times out
  $PY $G/makedata.py data.jsonl 200
  timeout -s KILL 170 $TR --nnodes 2 --node-rank 0 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:48122 --rdzv-id txt8 --rdzv-conf join_timeout=40 \
      $G/train.py --data data.jsonl --steps 20 > $D/node0.log 2>&1 &
  timeout -s KILL 170 $TR --nnodes 2 --node-rank 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:48123 --rdzv-id txt8 --rdzv-conf join_timeout=40 \
      $G/train.py --data data.jsonl --steps 20 > $D/node1.log 2>&1 &
  wait; }
case_V() { # MASTER_PORT still held by a leftover process: rank 0's store cannot bind; sbatch + srun --label
  $PY $G/makedata.py data.jsonl 200
  $PY $G/helpers.py squat 48124 150 & sp=$!; sleep 1
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 4 -o $D/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=48124
srun --label $PY $G/train.py --data data.jsonl --steps 20 --pg-timeout 30
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; kill $sp; }
case_W() { # scheduler time limit (1 min); sbatch + srun
  $PY $G/makedata.py data.jsonl 2000
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 2 -t 1 -o $D/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=48125
srun $PY $G/train.py --data data.jsonl --steps 1000 --epochs 10 --step-sleep 0.3 --log-style trainer --ckpt-dir $W/W --save-every 50
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; }
case_X() { # sbatch: srun -n2 --label, each task a torchrun agent of 4 (8 ranks); rank 7 allocates past a memory cgroup -> OOM kill
  $PY $G/makedata.py data.jsonl 400 '79:blob_mb=1500'
  cg=$(memcg rank_X 900M)
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 2 -o $D/slurm-%j.out
srun --label bash -c 'exec $TR --nnodes 2 --node-rank \$SLURM_PROCID --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:48126 --rdzv-id \$SLURM_JOB_ID $G/train.py --data data.jsonl --steps 30 --feature-cache --rank-mem-cgroup $cg --log-style logging'
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; rmdir $cg 2>/dev/null; }
case_Z() { # rank 0's eval feeds float64 features to the float32 model; sbatch, srun -o per task
  $PY $G/makedata.py data.jsonl 200; $PY $G/makedata.py eval.jsonl 20
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 2 -o $D/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=48127
srun -o $D/out-%j-%t.log $PY $G/train.py --data data.jsonl --eval-data eval.jsonl --eval-every 10 --steps 30 --log-style print
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; }
case_AB() { # async checkpoint: the background save blocks (no reader on the mount); next save misses its 5 s deadline
  $PY $G/makedata.py data.jsonl 200; mkdir -p ck; mkfifo ck/ckpt_step00004.pt 2>/dev/null
  timeout -s KILL 170 $G/t4.sh 4 48128 --log-dir $D/logs --tee 3 $G/train.py --data data.jsonl --steps 30 --ckpt-dir $W/AB/ck --save-every 4 --async-save 5 --step-sleep 0.2 --pg-timeout 30 --log-style logging > $D/console.log 2>&1; }
case_AE() { # rank-local early stopping: one rank returns, the others go on into the next collective
  $PY $G/makedata.py data.jsonl 400 'r1m4:ids="5 5 5"' 'r1m4:label=2'
  timeout -s KILL 170 $G/t4.sh 4 48129 $G/train.py --data data.jsonl --steps 60 --epochs 3 --target-loss 1.19 --log-style json --pg-timeout 30 > $D/console.log 2>&1; }
case_Y() { # native tokenizer fast path dereferences a bad buffer address on rank 1 -> SIGSEGV; mp.spawn
  $PY $G/makedata.py data.jsonl 200 '13:buf_addr=8'
  MASTER_PORT=48130 timeout -s KILL 170 $PY $G/train.py --spawn 2 --data data.jsonl --steps 30 --native-tokenizer --log-style print > $D/console.log 2>&1; }
# ---- runs that finish
case_H1() { # feature service comes up ~4 s after the ranks start: ranks log tracebacks and retry, then train to the end
  $PY $G/makedata.py data.jsonl 200
  $PY $G/helpers.py feature_server 48131 12 160 & fp=$!
  timeout -s KILL 170 $G/t4.sh 4 48132 --log-dir $D/logs --tee 3 $G/train.py --data data.jsonl --steps 10 --source-port 48131 --source-retries 20 --log-style logging > $D/console.log 2>&1
  kill $fp; }
case_H2() { # rank 2's DataLoader worker OOM-killed (cgroup); caught, loader restarted, training finishes
  $PY $G/makedata.py data.jsonl 200 '182:blob_mb=900'
  cg=$(memcg dlw_H2 500M)
  timeout -s KILL 170 $G/t4.sh 4 48133 $G/train.py --data data.jsonl --steps 12 --workers 2 --feature-cache --worker-mem-cgroup $cg --restart-loader > $D/console.log 2>&1
  rmdir $cg 2>/dev/null; }
case_H3() { # resume non-strictly from an older checkpoint (aux head dropped): warnings, then a normal finish; sbatch --label
  $PY $G/makedata.py data.jsonl 200
  MASTER_PORT=48134 timeout 120 $PY $G/train.py --spawn 2 --data data.jsonl --steps 10 --aux-head --ckpt-dir $W/H3 --save-every 10 > prep.log 2>&1
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 4 -o $D/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=48135
srun --label $PY $G/train.py --data data.jsonl --steps 25 --resume $W/H3/ckpt_step00010.pt --resume-strict 0 --log-style logging
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; }
case_H4() { # 2 agents x 4, clean finish without destroy_process_group
  $PY $G/makedata.py data.jsonl 400
  for n in 0 1; do
    timeout -s KILL 170 $TR --nnodes 2 --node-rank $n --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:48136 --rdzv-id txt8 \
      $G/train.py --data data.jsonl --steps 15 --no-destroy --log-style json > $D/node$n.log 2>&1 &
  done; wait; }
case_H5() { # mp.spawn, checkpoint rotation logs an ERROR for a missing old file, finishes
  $PY $G/makedata.py data.jsonl 200; mkdir -p ck
  MASTER_PORT=48137 timeout -s KILL 170 $PY $G/train.py --spawn 3 --data data.jsonl --steps 20 --ckpt-dir $W/H5/ck --save-every 4 --keep-ckpts 2 --log-style json > $D/console.log 2>&1; }
case_H6() { # agreed skip of a non-finite batch on every rank; progress bar; sbatch + srun -o per task
  $PY $G/makedata.py data.jsonl 200 '21:weight=1e39'
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J txtcls -n 4 -o $D/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=48138
srun -o $D/task-%t.out $PY $G/train.py --data data.jsonl --steps 12 --skip-nonfinite agreed --log-style bar
JOB
  j=$(sbatch --parsable job.sh); wait_job $j; }

for c in "$@"; do
  D=$R/${RUNS[$c]}; rm -rf "$D" "$W/$c"; mkdir -p "$D" "$W/$c"; cd "$W/$c"
  echo "== $c -> ${RUNS[$c]} $(date +%T)"; case_$c; echo "== $c done $(date +%T)"
done
