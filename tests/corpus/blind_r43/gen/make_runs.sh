#!/usr/bin/env bash
# Make the blind r43 runs: bash make_runs.sh 001 002 ...   (no argument: all of them)
# Needs root (cgroups, tmpfs/bind mounts), the private Slurm (bash /work/blind/slurm43/start.sh) and the CPU venv.
set -uo pipefail
G=$(cd "$(dirname "$0")" && pwd)
SET=$(dirname "$G")
R=$SET/runs
WK=/work/blind/r43/work
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
source /work/blind/slurm43/env.sh
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1 MASTER_ADDR=127.0.0.1
CG=/sys/fs/cgroup/memory

prep() {  # prep NNN: fresh run dir and scratch dir
  rm -rf "$R/$1" "$WK/s$1"; mkdir -p "$R/$1" "$WK/s$1"; cd "$WK/s$1" || exit 1
}
mkcg() {  # mkcg NAME MB -> prints the cgroup dir
  local d=$CG/b43_$1
  mkdir -p "$d"; echo $(($2 * 1024 * 1024)) > "$d/memory.limit_in_bytes"; echo 0 > "$d/memory.swappiness" 2>/dev/null
  echo "$d"
}
sbatch_wait() {  # sbatch_wait OUTDIR SCRIPT [sbatch args]: submit, wait for the end
  local out=$1 script=$2; shift 2
  local jid; jid=$(sbatch --parsable -D "$out" "$@" "$script") || return 1
  while squeue -h -j "$jid" 2>/dev/null | grep -q .; do sleep 2; done
  echo "$jid"
}

# ------------------------------------------------------------------------------------------------ failing runs
run_001() {  # torchrun --tee, logging: rank 2 deadlocks on its own lock late in the run; the others time out
  prep 001
  STYLE=logging STEPS=2500 FAIL=deadlock FAIL_RANK=2 FAIL_STEP=1900 PG_TIMEOUT=30 CKPT_DIR=$PWD/ckpt CKPT_EVERY=500 \
    timeout 240 $TR --nproc-per-node 4 --master-port 52101 --tee 3 "$G/train.py" > "$R/001/console.log" 2>&1
}
run_002() {  # torchrun without --tee (bare console), time-of-day stamps: torn line in rank 3's shard
  prep 002
  $PY "$G/mkdata.py" jsonl data 4 3000 3:1300:trunc
  STYLE=tod STEPS=2800 DATA=jsonl DATA_DIR=$PWD/data PG_TIMEOUT=30 \
    timeout 240 $TR --nproc-per-node 4 --master-port 52102 "$G/train.py" > "$R/002/console.log" 2>&1
}
run_004() {  # mp.spawn, HF-like trainer: an overflowing value in rank 1's data makes its loss inf
  prep 004
  $PY "$G/mkdata.py" jsonl data 4 3000 1:900:huge
  LAUNCH=spawn SPAWN_WORLD=4 MASTER_PORT=52104 STYLE=hf STEPS=2000 DATA=jsonl DATA_DIR=$PWD/data PG_TIMEOUT=30 \
    EVAL_EVERY=300 timeout 240 $PY "$G/train.py" > "$R/004/console.log" 2>&1
}
run_005() {  # srun --label, JSON lines: rank 2 leaks host memory inside a memory cgroup and is OOM-killed
  prep 005
  local cg; cg=$(mkcg r005 1100)
  MASTER_PORT=52105 STYLE=json STEPS=3000 FAIL=oom_cgroup FAIL_RANK=2 FAIL_STEP=1400 CGROUP=$cg LOG_EVERY=20 \
    PG_TIMEOUT=30 timeout 240 srun -n 4 --label "$PY" "$G/train.py" > "$R/005/console.log" 2>&1
  rmdir "$cg" 2>/dev/null
}
run_007() {  # srun -n 8 without --label, -K: rank 6's prefetch thread dies on a torn record, its main thread waits
  prep 007
  $PY "$G/mkdata.py" jsonl data 8 3000 6:700:trunc
  MASTER_PORT=52107 STYLE=plain STEPS=2000 DATA=jsonl_prefetch DATA_DIR=$PWD/data PG_TIMEOUT=30 ALL_LOG=0 \
    timeout 240 srun -n 8 -K "$PY" "$G/train.py" > "$R/007/console.log" 2>&1
}
run_008() {  # sbatch, epoch stamps: the job hits its 1-minute time limit
  prep 008
  cat > job.sh <<EOF
#!/bin/bash
#SBATCH -J pretrain-small
#SBATCH -n 4
#SBATCH -t 1
#SBATCH -o $R/008/slurm-%j.out
echo "job \$SLURM_JOB_ID on \$(hostname) tasks=\$SLURM_NTASKS"
export MASTER_PORT=52108 STYLE=epoch STEPS=100000 STEP_SLEEP=0.02 CKPT_DIR=$PWD/ckpt CKPT_EVERY=1000 PG_TIMEOUT=60
srun --label $PY $G/train.py
EOF
  sbatch_wait "$PWD" job.sh > jid
}
run_009() {  # mp.spawn, plain print, no stamps: rank 1 segfaults in a native helper library (faulthandler dump)
  prep 009
  LAUNCH=spawn SPAWN_WORLD=2 MASTER_PORT=52109 STYLE=plain STEPS=2500 FAIL=segv FAIL_RANK=1 FAIL_STEP=1700 \
    EXT_DIR=$G/ext PG_TIMEOUT=30 timeout 240 $PY "$G/train.py" > "$R/009/console.log" 2>&1
}
run_010() {  # torchrun --tee, Lightning-like bars: rank 3 all_reduces a 4-long metric at eval (DEBUG=DETAIL)
  prep 010
  NO_DDP=1 TORCH_DISTRIBUTED_DEBUG=DETAIL STYLE=lightning STEPS=2000 FAIL=mismatch FAIL_RANK=3 FAIL_STEP=1250 \
    EVAL_EVERY=250 PG_TIMEOUT=30 timeout 240 $TR --nproc-per-node 4 --master-port 52110 --tee 3 "$G/train.py" \
    > "$R/010/console.log" 2>&1
}
run_012() {  # srun -o per task, logging: rank 1's shard is short, it leaves the loop and exits 0
  prep 012
  $PY "$G/mkdata.py" jsonl data 4 3000 1:800:short
  mkdir -p "$R/012/out"
  MASTER_PORT=52112 STYLE=logging STEPS=2500 DATA=jsonl DATA_DIR=$PWD/data FAIL=early_exit FAIL_RANK=1 ALL_LOG=1 \
    LOG_EVERY=50 PG_TIMEOUT=30 timeout 240 srun -n 4 -o "$R/012/out/task-%t.out" "$PY" "$G/train.py" \
    > "$R/012/console.log" 2>&1
}
run_013() {  # two torchrun agents (c10d), tqdm bars: a DataLoader worker of rank 3 is OOM-killed in its cgroup
  prep 013
  local cg; cg=$(mkcg r013 700)
  for n in a b; do
    STYLE=tqdm STEPS=2000 DATA=dataloader WORKERS=2 FAIL=dl_worker_oom FAIL_RANK=3 FAIL_STEP=900 CGROUP=$cg \
      PG_TIMEOUT=30 timeout 240 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d \
      --rdzv-endpoint 127.0.0.1:52113 --rdzv-id train13 --tee 3 "$G/train.py" > "$R/013/trn-$n.log" 2>&1 &
    sleep 1
  done
  wait
  rmdir "$cg" 2>/dev/null
}
run_015() {  # torchrun --tee, JSON lines: checkpoint dir is a read-only bind mount
  prep 015
  mkdir -p ckpt_src ckpt; mount --bind ckpt_src ckpt && mount -o remount,bind,ro ckpt
  STYLE=json STEPS=3000 CKPT_DIR=$PWD/ckpt CKPT_EVERY=1500 PG_TIMEOUT=30 \
    timeout 240 $TR --nproc-per-node 4 --master-port 52115 --tee 3 "$G/train.py" > "$R/015/console.log" 2>&1
  umount ckpt
}
run_016() {  # sbatch, HF-like: phase 1 trains and saves; the copy to the archive is torn; phase 2 resumes from it
  prep 016
  cat > job.sh <<EOF
#!/bin/bash
#SBATCH -J ft-resume
#SBATCH -n 2
#SBATCH -t 5
#SBATCH -o $R/016/slurm-%j.out
export MASTER_PORT=52116 STYLE=hf STEPS=1200 CKPT_DIR=$PWD/ckpt CKPT_EVERY=1000 PG_TIMEOUT=30 EVAL_EVERY=300
echo "[stage 1] training from scratch"
srun $PY $G/train.py
mkdir -p $PWD/archive
echo "[stage 2] archiving checkpoint"
head -c 150000 $PWD/ckpt/step_001000/model.pt > $PWD/archive/model.pt
echo "[stage 3] resuming from archive"
RESUME=$PWD/archive/model.pt STEPS=2400 srun $PY $G/train.py
EOF
  sbatch_wait "$PWD" job.sh > jid
}
run_017() {  # sbatch + srun --label, plain: rank 0's checkpoint writer blocks for good; the time limit ends it
  prep 017
  cat > job.sh <<EOF
#!/bin/bash
#SBATCH -J lm-8k
#SBATCH -n 4
#SBATCH -t 2
#SBATCH -o $R/017/slurm-%j.out
export MASTER_PORT=52117 STYLE=plain RANK_TAG=1 STEPS=4000 CKPT_DIR=$PWD/ckpt CKPT_EVERY=1000 FAIL=writer_hang \
  FAIL_RANK=0 FAIL_STEP=2000 PG_TIMEOUT=600
srun --label $PY $G/train.py
EOF
  sbatch_wait "$PWD" job.sh > jid
}
run_019() {  # torchrun --tee, ISO stamps, 6 ranks: rank 4's loader keeps every chunk file open (ulimit -n 512)
  prep 019
  $PY "$G/mkdata.py" chunks data 6 4 1200
  STYLE=iso STEPS=2000 DATA=chunks DATA_DIR=$PWD/data NOFILE=512 PG_TIMEOUT=30 \
    timeout 240 $TR --nproc-per-node 6 --master-port 52119 --tee 3 "$G/train.py" > "$R/019/console.log" 2>&1
}
run_020() {  # srun --label, JSON: rank 2's second data part was written as float64
  prep 020
  $PY "$G/mkdata.py" npy data 4 2
  MASTER_PORT=52120 STYLE=json STEPS=1100 DATA=npy DATA_DIR=$PWD/data PG_TIMEOUT=30 \
    timeout 240 srun -n 4 --label "$PY" "$G/train.py" > "$R/020/console.log" 2>&1
}
run_022() {  # two torchrun agents expecting 3 nodes: rendezvous never completes
  prep 022
  for n in a b; do
    STYLE=logging STEPS=500 timeout 200 $TR --nnodes 3 --nproc-per-node 2 --rdzv-backend c10d \
      --rdzv-endpoint 127.0.0.1:52122 --rdzv-id train22 --rdzv-conf join_timeout=40 --tee 3 "$G/train.py" \
      > "$R/022/trn-$n.log" 2>&1 &
    sleep 1
  done
  wait
}
run_023() {  # torchrun --tee: an old process still holds the master port
  prep 023
  $PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',52123));s.listen();time.sleep(60)" &
  local hold=$!
  sleep 1
  STYLE=plain STEPS=500 timeout 120 $TR --nnodes 1 --nproc-per-node 2 --master-port 52123 --tee 3 "$G/train.py" \
    > "$R/023/console.log" 2>&1
  kill $hold
}
run_024() {  # sbatch + srun --label, time-of-day: the job is cancelled (SIGTERM) while training
  prep 024
  cat > job.sh <<EOF
#!/bin/bash
#SBATCH -J sft-llama-tiny
#SBATCH -n 4
#SBATCH -t 10
#SBATCH -o $R/024/slurm-%j.out
export MASTER_PORT=52124 STYLE=tod STEPS=100000 STEP_SLEEP=0.01 CKPT_DIR=$PWD/ckpt CKPT_EVERY=1000 PG_TIMEOUT=60 FAIL=sigterm
srun --label $PY $G/train.py
EOF
  local jid; jid=$(sbatch --parsable -D "$PWD" job.sh); echo "$jid" > jid
  until squeue -h -j "$jid" -o %T | grep -q RUNNING; do sleep 1; done
  sleep 50; scancel "$jid"
  while squeue -h -j "$jid" 2>/dev/null | grep -q .; do sleep 2; done
}
run_025() {  # torchrun --tee, HF-like: LR keeps growing after step 1500, loss diverges, the guard stops the run
  prep 025
  STYLE=hf STEPS=3000 FAIL=diverge FAIL_STEP=1500 LR=0.002 EVAL_EVERY=500 LOG_EVERY=10 PG_TIMEOUT=30 \
    timeout 240 $TR --nproc-per-node 4 --master-port 52125 --tee 3 "$G/train.py" > "$R/025/console.log" 2>&1
}
run_026() {  # mp.spawn, time-of-day: the model hub answers 503 to rank 0's config download
  prep 026
  $PY "$G/hubserver.py" 52226 503 > hub.log 2>&1 &
  local hub=$!
  sleep 1
  LAUNCH=spawn SPAWN_WORLD=4 MASTER_PORT=52126 STYLE=tod STEPS=500 FAIL=hub HUB=http://127.0.0.1:52226 PG_TIMEOUT=60 \
    timeout 200 $PY "$G/train.py" > "$R/026/console.log" 2>&1
  kill $hub
}
run_027() {  # torchrun --tee, logging: an extension built against another torch (undefined symbol) on import
  prep 027
  STYLE=logging STEPS=500 FAIL=abi EXT_DIR=$G/ext PG_TIMEOUT=30 \
    timeout 120 $TR --nproc-per-node 4 --master-port 52127 --tee 3 "$G/train.py" > "$R/027/console.log" 2>&1
}
run_028() {  # srun -o per task (no -K), logging: rank 3 raises KeyError late; the others then lose their peer
  prep 028
  mkdir -p "$R/028/logs"
  MASTER_PORT=52128 STYLE=logging STEPS=2500 FAIL=exc_key FAIL_RANK=3 FAIL_STEP=1750 ALL_LOG=1 LOG_EVERY=50 \
    PG_TIMEOUT=30 timeout 240 srun -n 4 -o "$R/028/logs/train-%t.log" "$PY" "$G/train.py" > "$R/028/console.log" 2>&1
}
run_029() {  # three torchrun agents (c10d), epoch stamps: rank 4 leaks memory; a watcher (earlyoom-like) kill -9s it
  prep 029
  local pids=""
  for n in a b c; do
    STYLE=epoch STEPS=3000 FAIL=oom_watch FAIL_RANK=4 FAIL_STEP=1500 PG_TIMEOUT=30 ALL_LOG=0 \
      timeout 240 $TR --nnodes 3 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:52129 \
      --rdzv-id train29 --tee 3 "$G/train.py" > "$R/029/trn-$n.log" 2>&1 &
    pids="$pids $!"
    sleep 1
  done
  $PY "$G/memwatch.py" 1500 200 > memwatch.log 2>&1 &
  local w=$!
  wait $pids
  kill $w 2>/dev/null
}
run_031() {  # srun --label, time-of-day: rank 0 dies on a config key before it hosts the store; others time out
  prep 031
  mkdir -p data; echo '{"model": {"hidden": 64}, "optim": {"name": "sgd", "lr": 0.01}}' > data/train.json
  MASTER_PORT=52131 STYLE=tod STEPS=1000 FAIL=config_err DATA_DIR=$PWD/data PG_TIMEOUT=30 ALL_LOG=1 \
    timeout 200 srun -n 4 --label "$PY" "$G/train.py" > "$R/031/console.log" 2>&1
}
run_033() {  # mp.spawn, logging: sharded async save; rank 2's writer blocks and misses the deadline
  prep 033
  LAUNCH=spawn SPAWN_WORLD=4 MASTER_PORT=52133 STYLE=logging STEPS=2500 CKPT_DIR=$PWD/ckpt CKPT_MODE=sharded \
    CKPT_EVERY=500 FAIL=async_timeout FAIL_RANK=2 FAIL_STEP=1500 CKPT_DEADLINE=20 PG_TIMEOUT=60 \
    timeout 240 $PY "$G/train.py" > "$R/033/console.log" 2>&1
}
run_034() {  # torchrun --log-dir --redirects: rank 3's local checkpoint disk (small tmpfs) fills; console + 2 ranks' files
  prep 034
  mkdir -p ckpt scratch3; mount -t tmpfs -o size=600k tmpfs scratch3; ln -s "$PWD/scratch3" ckpt/local-r3
  STYLE=tod STEPS=2500 CKPT_DIR=$PWD/ckpt CKPT_MODE=sharded CKPT_EVERY=500 PG_TIMEOUT=30 ALL_LOG=1 \
    timeout 240 $TR --nproc-per-node 4 --master-port 52134 --log-dir "$PWD/tlogs" --redirects 3 "$G/train.py" \
    > "$R/034/console.log" 2>&1
  umount scratch3
  local a; a=$(ls -d tlogs/*/attempt_0)
  mkdir -p "$R/034/tlogs/attempt_0"
  cp -r "$a/1" "$a/3" "$R/034/tlogs/attempt_0/"
}
run_037() {  # torchrun --tee, time-of-day: resume with hidden=128 from a hidden=64 checkpoint (rank 0 loads)
  prep 037
  STYLE=tod STEPS=600 CKPT_DIR=$PWD/ckpt CKPT_EVERY=500 PG_TIMEOUT=30 \
    timeout 200 $TR --nproc-per-node 4 --master-port 52137 --tee 3 "$G/train.py" > "$R/037/console.log" 2>&1
  STYLE=tod STEPS=2000 HIDDEN=128 RESUME=$PWD/ckpt/step_000500/model.pt PG_TIMEOUT=30 \
    timeout 200 $TR --nproc-per-node 4 --master-port 52137 --tee 3 "$G/train.py" >> "$R/037/console.log" 2>&1
}
run_038() {  # three torchrun agents, ISO stamps: one batch in rank 5's shard has 31 features
  prep 038
  $PY "$G/mkdata.py" jsonl data 6 3000 5:1300:width31
  for n in a b c; do
    STYLE=iso STEPS=2500 DATA=jsonl DATA_DIR=$PWD/data PG_TIMEOUT=30 ALL_LOG=1 LOG_EVERY=100 \
      timeout 240 $TR --nnodes 3 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:52138 \
      --rdzv-id train38 --tee 3 "$G/train.py" > "$R/038/trn-$n.log" 2>&1 &
    sleep 1
  done
  wait
}
run_040() {  # torchrun --tee, 8 ranks, time-of-day: rank 5's shard is deleted by a cleanup job mid-run
  prep 040
  $PY "$G/mkdata.py" jsonl data 8 500
  STYLE=tod STEPS=2000 DATA=jsonl DATA_DIR=$PWD/data PG_TIMEOUT=30 \
    timeout 240 $TR --nproc-per-node 8 --master-port 52140 --tee 3 "$G/train.py" > "$R/040/console.log" 2>&1 &
  local t=$!
  until grep -q "step 200/" "$R/040/console.log" 2>/dev/null; do sleep 0.5; done
  rm -f data/shard-00005.jsonl
  wait $t
}

# ------------------------------------------------------------------------------------------------ runs that finish
run_003() {  # torchrun --tee, logging: warnings, eval, checkpoints; the metrics-uploader thread dies (harmless)
  prep 003
  STYLE=logging STEPS=2000 FAIL=bg_benign CKPT_DIR=$PWD/ckpt CKPT_EVERY=500 PG_TIMEOUT=30 \
    timeout 240 $TR --nproc-per-node 4 --master-port 52103 --tee 3 "$G/train.py" > "$R/003/console.log" 2>&1
}
run_006() {  # srun -o per task, time-of-day: a non-finite sample on rank 1; inputs zeroed but its inf target is not,
  # so NaN gradients reach every rank through DDP and the run 'finishes' with NaN losses from step 600 on
  prep 006
  $PY "$G/mkdata.py" jsonl data 4 3000 1:600:huge
  mkdir -p "$R/006/out"
  MASTER_PORT=52106 STYLE=tod STEPS=1500 DATA=jsonl DATA_DIR=$PWD/data FAIL=nan_skip ALL_LOG=1 LOG_EVERY=50 \
    PG_TIMEOUT=30 timeout 240 srun -n 4 -o "$R/006/out/task-%t.out" "$PY" "$G/train.py" > "$R/006/console.log" 2>&1
}
run_011() {  # mp.spawn, HF-like: dynamic loss scaling overflows at warm-up, then trains normally
  prep 011
  LAUNCH=spawn SPAWN_WORLD=4 MASTER_PORT=52111 STYLE=hf STEPS=1500 FAIL=overflow_warmup EVAL_EVERY=500 \
    CKPT_DIR=$PWD/ckpt CKPT_EVERY=500 PG_TIMEOUT=30 timeout 240 $PY "$G/train.py" > "$R/011/console.log" 2>&1
}
run_014() {  # two torchrun agents, Lightning-like: rank 2 stalls 8 s once; barriers slow but fine
  prep 014
  for n in a b; do
    STYLE=lightning STEPS=1500 FAIL=slow_barrier FAIL_RANK=2 FAIL_STEP=1000 PG_TIMEOUT=60 CKPT_DIR=$PWD/ckpt \
      CKPT_EVERY=500 timeout 240 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d \
      --rdzv-endpoint 127.0.0.1:52114 --rdzv-id train14 --tee 3 "$G/train.py" > "$R/014/trn-$n.log" 2>&1 &
    sleep 1
  done
  wait
}
run_018() {  # srun --label, time-of-day: small checkpoint volume; a save hits ENOSPC, old ones pruned, retry works
  prep 018
  mkdir -p ckpt; mount -t tmpfs -o size=500k tmpfs ckpt
  MASTER_PORT=52118 STYLE=tod STEPS=2000 CKPT_DIR=$PWD/ckpt CKPT_EVERY=500 FAIL=ckpt_retry PG_TIMEOUT=30 \
    timeout 240 srun -n 4 --label "$PY" "$G/train.py" > "$R/018/console.log" 2>&1
  umount ckpt
}
run_021() {  # mp.spawn, ISO: the hub answers 503 twice, then the config downloads
  prep 021
  $PY "$G/hubserver.py" 52221 503:2 > hub.log 2>&1 &
  local hub=$!
  sleep 1
  LAUNCH=spawn SPAWN_WORLD=2 MASTER_PORT=52121 STYLE=iso STEPS=1500 FAIL=hub HUB=http://127.0.0.1:52221 \
    PG_TIMEOUT=60 timeout 240 $PY "$G/train.py" > "$R/021/console.log" 2>&1
  kill $hub
}
run_030() {  # torchrun --max-restarts 1: rank 2 crashes in attempt 0, the restart completes
  prep 030
  STYLE=tod STEPS=1500 FAIL=crash_restart FAIL_RANK=2 FAIL_STEP=300 PG_TIMEOUT=30 \
    timeout 240 $TR --nproc-per-node 4 --max-restarts 1 --master-port 52130 --tee 3 "$G/train.py" \
    > "$R/030/console.log" 2>&1
}
run_032() {  # sbatch + srun -o per task, tqdm bars on rank 0; completes
  prep 032
  mkdir -p "$R/032/logs"
  cat > job.sh <<EOF
#!/bin/bash
#SBATCH -J vit-tiny
#SBATCH -n 4
#SBATCH -t 5
#SBATCH -o $R/032/slurm-%j.out
export MASTER_PORT=52132 STYLE=tqdm STEPS=2000 CKPT_DIR=$PWD/ckpt CKPT_EVERY=500 PG_TIMEOUT=30
srun -o $R/032/logs/%x-%t.out $PY $G/train.py
echo "done: \$(date)"
EOF
  sbatch_wait "$PWD" job.sh > jid
}
run_035() {  # torchrun --log-dir --redirects, epoch stamps; completes; console + ranks 0 and 2 files
  prep 035
  STYLE=epoch STEPS=2000 ALL_LOG=1 CKPT_DIR=$PWD/ckpt CKPT_EVERY=500 PG_TIMEOUT=30 \
    timeout 240 $TR --nproc-per-node 4 --master-port 52135 --log-dir "$PWD/tlogs" --redirects 3 "$G/train.py" \
    > "$R/035/console.log" 2>&1
  local a; a=$(ls -d tlogs/*/attempt_0)
  mkdir -p "$R/035/tlogs/attempt_0"
  cp -r "$a/0" "$a/2" "$R/035/tlogs/attempt_0/"
}
run_036() {  # three torchrun agents, plain with rank tags on every rank; completes
  prep 036
  for n in a b c; do
    STYLE=plain RANK_TAG=1 ALL_LOG=1 LOG_EVERY=100 STEPS=1500 PG_TIMEOUT=30 \
      timeout 240 $TR --nnodes 3 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:52136 \
      --rdzv-id train36 --tee 3 "$G/train.py" > "$R/036/trn-$n.log" 2>&1 &
    sleep 1
  done
  wait
}
run_039() {  # srun --label, plain: a non-finite sample on rank 2 is zeroed (inputs and targets); completes
  prep 039
  $PY "$G/mkdata.py" jsonl data 4 3000 2:800:huge
  MASTER_PORT=52139 STYLE=plain RANK_TAG=1 STEPS=1600 DATA=jsonl DATA_DIR=$PWD/data FAIL=nan_skip SANITIZE_TARGETS=1 \
    ALL_LOG=1 LOG_EVERY=100 PG_TIMEOUT=30 timeout 240 srun -n 4 --label "$PY" "$G/train.py" > "$R/039/console.log" 2>&1
}
run_041() {  # torchrun with a c10d rendezvous and --max-restarts 1: rank 1 crashes in attempt 0, the restart runs on
  prep 041
  STYLE=logging STEPS=1500 FAIL=crash_restart FAIL_RANK=1 FAIL_STEP=400 PG_TIMEOUT=30 CKPT_DIR=$PWD/ckpt CKPT_EVERY=500 \
    timeout 240 $TR --nnodes 1 --nproc-per-node 4 --max-restarts 1 --rdzv-backend c10d \
    --rdzv-endpoint 127.0.0.1:52141 --rdzv-id train41 --tee 3 "$G/train.py" > "$R/041/console.log" 2>&1
}
run_042() {  # srun --label, JSON lines on every rank, eval and checkpoints; completes
  prep 042
  MASTER_PORT=52142 STYLE=json ALL_LOG=1 LOG_EVERY=50 STEPS=2000 CKPT_DIR=$PWD/ckpt CKPT_EVERY=500 PG_TIMEOUT=30 \
    timeout 240 srun -n 4 --label "$PY" "$G/train.py" > "$R/042/console.log" 2>&1
}
run_043() {  # torchrun --tee, logging, 4 ranks: sharded async save; rank 2's writer blocks and misses its 20 s deadline
  prep 043
  STYLE=logging STEPS=2500 CKPT_DIR=$PWD/ckpt CKPT_MODE=sharded CKPT_EVERY=500 FAIL=async_timeout FAIL_RANK=2 \
    FAIL_STEP=1500 CKPT_DEADLINE=20 PG_TIMEOUT=60 \
    timeout 240 $TR --nproc-per-node 4 --master-port 52143 --tee 3 "$G/train.py" > "$R/043/console.log" 2>&1
}

ALL="001 002 003 004 005 006 007 008 009 010 011 012 013 014 015 016 017 018 019 020 021 022 023 024 025 026 027 028 029 030 031 032 033 034 035 036 037 038 039 040 041 042 043"
for n in ${@:-$ALL}; do
  echo "[$(date +%T)] run $n"; ( "run_$n" ); echo "[$(date +%T)] run $n done"
done
