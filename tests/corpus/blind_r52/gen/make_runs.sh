#!/usr/bin/env bash
# Regenerates the r52 runs: bash make_runs.sh [RUN...]   (needs root for cgroup/tmpfs mounts; slurm52 started)
set -u
SET=/work/blind/r52/set
R=$SET/runs
G=$SET/gen
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
W=/tmp/r52work
mkdir -p "$W" && cd "$W"
source /work/blind/slurm52/env.sh
export PATH=/work/blind/venv/bin:$PATH
export MASTER_ADDR=127.0.0.1
T="$G/train.py"
d() { rm -rf "$R/$1"; mkdir -p "$R/$1"; echo "$R/$1"; }

r001() { o=$(d 001); MODE=runtime FAIL_RANK=1 FAIL_STEP=6 STEPS=20 \
  $TR --nproc-per-node 4 --master-port 59001 --tee 3 --log-dir $W/ld001 "$T" > $o/console.log 2>&1; }
r002() { o=$(d 002); MODE=ok STEPS=25 $TR --nproc-per-node 4 --master-port 59002 "$T" > $o/console.log 2>&1; }
r003() { o=$(d 003); cg=/sys/fs/cgroup/memory/r52oom; mkdir -p $cg; echo 2G > $cg/memory.limit_in_bytes
  ( echo $BASHPID > $cg/cgroup.procs; MODE=oom_alloc FAIL_RANK=2 FAIL_STEP=4 STEPS=30 LOGSTYLE=logging \
    exec $TR --nproc-per-node 4 --master-port 59003 "$T" ) > $o/console.log 2>&1
  dmesg 2>/dev/null | grep -i -E 'memory cgroup out of memory|oom-kill|Killed process' | tail -5 > $W/dmesg003.txt; }
r004() { o=$(d 004); rm -f /tmp/r52_fifo; mkfifo /tmp/r52_fifo
  MODE=hang_io FAIL_RANK=1 FAIL_STEP=5 STEPS=30 PG_TIMEOUT=20 MASTER_PORT=59004 LOGSTYLE=logging \
  srun -n 3 --label --kill-on-bad-exit=1 $PY "$T" > $o/console.log 2>&1; }
r005() { o=$(d 005); LAUNCH=spawn NPROCS=2 MODE=ok STEPS=30 LOGSTYLE=tqdm MASTER_PORT=59005 $PY "$T" > $o/console.log 2>&1; }
r006() { o=$(d 006); MODE=shape FAIL_RANK=3 FAIL_STEP=7 STEPS=20 LOGSTYLE=framework \
  $TR --nproc-per-node 4 --master-port 59006 --redirects 3 --log-dir $o/torchrun_logs "$T" > $W/c006.log 2>&1; }
r007() { o=$(d 007); LAUNCH=spawn NPROCS=3 MODE=data_missing FAIL_RANK=2 STEPS=20 LOGSTYLE=logging MASTER_PORT=59007 \
  $PY "$T" > $o/console.log 2>&1; }
r008() { o=$(d 008); MODE=warn STEPS=20 LOGSTYLE=logging MASTER_PORT=59008 srun -n 3 --label $PY -W default "$T" > $o/console.log 2>&1; }
r009() { o=$(d 009); mkdir -p $o/out; MODE=nan FAIL_RANK=3 STEPS=30 LOGSTYLE=json MASTER_PORT=59009 PG_TIMEOUT=20 \
  srun -n 4 --kill-on-bad-exit=1 -o $o/out/train-%j-%t.out $PY "$T" > $W/c009.log 2>&1; }
r010() { o=$(d 010); MODE=ok STEPS=20 LOGSTYLE=framework \
  $TR --nproc-per-node 3 --master-port 59010 --redirects 3 --log-dir $W/ld010 "$T" > $W/c010.log 2>&1
  f=$(ls -d $W/ld010/*/attempt_0/1); mkdir -p $o/worker; cp $f/* $o/worker/; rm -rf $W/ld010; }
r011() { o=$(d 011); mkdir -p /tmp/r52_small; mountpoint -q /tmp/r52_small || mount -t tmpfs -o size=2m tmpfs /tmp/r52_small
  cat > $W/job011.sh <<EOF
#!/bin/bash
#SBATCH -J pretrain-small -n 2 -o $o/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59011 MODE=ckpt_full FAIL_STEP=8 STEPS=20 CKPT_DIR=/tmp/r52_small/ckpt LOGSTYLE=logging
mkdir -p /tmp/r52_small/ckpt
srun --label --kill-on-bad-exit=1 $PY $T
EOF
  jid=$(sbatch --parsable $W/job011.sh); while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done; umount /tmp/r52_small; }
r012() { o=$(d 012); MODE=mismatch FAIL_RANK=1 FAIL_STEP=5 LOGSTYLE=json STEPS=20 PG_TIMEOUT=20 \
  $TR --nproc-per-node 3 --master-port 59012 --tee 3 --log-dir $W/ld012 "$T" > $o/console.log 2>&1; }
r013() { o=$(d 013); MODE=ok STEPS=400 LOGSTYLE=logging $TR --nproc-per-node 4 --master-port 59013 "$T" > $W/c013.log 2>&1 &
  p=$!; sleep 18; cp $W/c013.log $o/console.log; kill -TERM $p; wait $p; }
r014() { o=$(d 014); MODE=worker_kill FAIL_RANK=1 STEPS=30 \
  $TR --nproc-per-node 2 --master-port 59014 "$T" > $W/c014.log 2>&1; tail -n 200 $W/c014.log > $o/console.log; }
r015() { o=$(d 015); MODE=ok STEPS=10 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:59015 \
  --rdzv-id job015 --rdzv-conf join_timeout=25 "$T" > $o/console.log 2>&1; }
r016() { o=$(d 016); for n in 0 1; do MODE=ok STEPS=20 LOGSTYLE=json $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d \
  --rdzv-endpoint 127.0.0.1:59016 --rdzv-id job016 --tee 3 "$T" > $o/node$n.log 2>&1 & done; wait; }
r017() { o=$(d 017); MODE=early_exit FAIL_RANK=3 FAIL_STEP=6 STEPS=20 PG_TIMEOUT=30 MASTER_PORT=59017 \
  srun -n 4 --label $PY "$T" > $o/console.log 2>&1; }
r018() { o=$(d 018); cat > $W/job018.sh <<EOF
#!/bin/bash
#SBATCH -J finetune-json -n 2 -o $o/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59018 MODE=ok_ckpt STEPS=30 CKPT_DIR=$W/ck018 LOGSTYLE=json
srun $PY $T
EOF
  jid=$(sbatch --parsable $W/job018.sh); while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done; }
r019() { o=$(d 019); b=$W/b019; rm -rf $b; mkdir -p $b; MODE=segv FAIL_RANK=0 FAIL_STEP=9 STEPS=20 \
  $TR --nproc-per-node 2 --master-port 59019 --tee 3 --log-dir $b/torchrun "$T" > $b/console.log 2>&1
  tar czf $o/logs.tar.gz -C $b .; }
r020() { o=$(d 020); MODE=swallow FAIL_STEP=6 STEPS=20 LOGSTYLE=logging \
  $TR --nproc-per-node 2 --master-port 59020 "$T" > $o/console.log 2>&1; }
r021() { o=$(d 021); MODE=bgthread FAIL_RANK=2 FAIL_STEP=6 STEPS=30 PG_TIMEOUT=20 LOGSTYLE=framework \
  $TR --nproc-per-node 3 --master-port 59021 "$T" > $o/console.log 2>&1; }
r022() { o=$(d 022); $PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',59022));s.listen();time.sleep(60)" & p=$!; sleep 1
  MODE=ok STEPS=10 $TR --nproc-per-node 2 --master-port 59022 "$T" > $o/console.log 2>&1; kill $p; }
r023() { o=$(d 023); cat > $W/job023.sh <<EOF
#!/bin/bash
#SBATCH -J pretrain-long -n 2 -t 1 -o $o/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59023 MODE=ok STEPS=100000 STEP_SLEEP=0.5 LOGSTYLE=framework
srun --label $PY $T
EOF
  jid=$(sbatch --parsable $W/job023.sh); while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 3; done; }
r024() { o=$(d 024); cat > $W/job024.sh <<EOF
#!/bin/bash
#SBATCH -J sweep-lr3 -n 3 -o $o/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59024 MODE=ok STEPS=100000 STEP_SLEEP=0.3 LOGSTYLE=logging
srun --label $PY $T
EOF
  jid=$(sbatch --parsable $W/job024.sh); sleep 25; scancel $jid; while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done; }
r025() { o=$(d 025); b=$W/b025; rm -rf $b; mkdir -p $b; MODE=ok STEPS=25 MASTER_PORT=59025 \
  srun -n 3 -o $b/task-%t.log $PY "$T" > /dev/null 2>&1; tar czf $o/job-logs.tar.gz -C $b .; }
r026() { o=$(d 026); mkdir -p /tmp/r52_shards; for i in $(seq 0 7); do head -c 4096 /dev/urandom > /tmp/r52_shards/shard_$i.bin; done
  ( ulimit -n 200; MODE=emfile FAIL_RANK=1 STEPS=40 LOGSTYLE=logging \
    $TR --nproc-per-node 2 --master-port 59026 --redirects 3 --log-dir $o/job_logs "$T" ) > $W/c026.log 2>&1; }
r027() { o=$(d 027); mkdir -p /tmp/r52_ckpt27; $PY -c "
import torch,torch.nn as nn
m=nn.Sequential(nn.Linear(16,32),nn.ReLU(),nn.Linear(32,1));torch.save({'model':m.state_dict(),'opt':{},'pad':torch.zeros(200000)},'/tmp/r52_ckpt27/latest.pt')"
  sz=$(stat -c %s /tmp/r52_ckpt27/latest.pt); truncate -s $((sz/2)) /tmp/r52_ckpt27/latest.pt
  MODE=corrupt CKPT_DIR=/tmp/r52_ckpt27 STEPS=10 PG_TIMEOUT=20 \
  $TR --nproc-per-node 2 --master-port 59027 --tee 3 --log-dir $o/logs "$T" > $o/console.log 2>&1; }
r028() { o=$(d 028); rm -rf /tmp/r52_ckpt28; MODE=load_mismatch CKPT_DIR=/tmp/r52_ckpt28 STEPS=10 MASTER_PORT=59028 PG_TIMEOUT=20 \
  srun -n 4 --label $PY "$T" > $W/c028.log 2>&1; tail -n 200 $W/c028.log > $o/console.log; }
r029() { o=$(d 029); MODE=ok STEPS=120 STEP_SLEEP=0.05 $TR --nproc-per-node 4 --master-port 59029 "$T" > $W/c029.log 2>&1
  tail -n 200 $W/c029.log > $o/console.log; }
r030() { o=$(d 030); pd=$W/pd030; rm -rf $pd; mkdir -p $pd
  ( LAUNCH=spawn NPROCS=3 MODE=oom_alloc FAIL_RANK=1 FAIL_STEP=5 STEPS=40 PIDFILE_DIR=$pd MASTER_PORT=59030 $PY "$T" 2>&1 &
    w=$!; while kill -0 $w 2>/dev/null; do
      for f in $pd/pid*; do [ -f "$f" ] || continue; p=$(cat $f); rss=$(awk '/VmRSS/{print int($2/1024)}' /proc/$p/status 2>/dev/null)
        if [ -n "$rss" ] && [ "$rss" -gt 1536 ]; then echo "memwatch: pid $p rss ${rss} MiB over the 1536 MiB per-process limit, sending SIGKILL"; kill -9 $p; fi; done
      sleep 0.2; done ) > $o/console.log 2>&1; }
r031() { o=$(d 031); cat > $W/job031.sh <<EOF
#!/bin/bash
#SBATCH -J eval-mixed -n 2 -o $o/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59031 MODE=dtype FAIL_RANK=0 FAIL_STEP=4 STEPS=20 PG_TIMEOUT=20
srun --label $PY $T
EOF
  jid=$(sbatch --parsable $W/job031.sh); while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done; }
r032() { o=$(d 032); MODE=ok STEPS=120 STEP_SLEEP=0.2 LOGSTYLE=json MASTER_PORT=59032 srun -n 2 --label $PY "$T" > $W/c032.log 2>&1 &
  p=$!; sleep 14; cp $W/c032.log $o/console.log; wait $p; }
r033() { o=$(d 033); mkdir -p /tmp/r52_ro; mountpoint -q /tmp/r52_ro || mount -t tmpfs -o ro,size=1m tmpfs /tmp/r52_ro
  MODE=ckpt_ro FAIL_STEP=5 STEPS=20 CKPT_DIR=/tmp/r52_ro LOGSTYLE=json \
  $TR --nproc-per-node 2 --master-port 59033 --redirects 3 --log-dir $o/logs "$T" > $o/console.log 2>&1; umount /tmp/r52_ro; }
r034() { o=$(d 034); TORCH_DISTRIBUTED_DEBUG=INFO MODE=ok STEPS=15 $TR --nproc-per-node 8 --master-port 59034 "$T" > $o/console.log 2>&1; }

if [ $# -eq 0 ]; then set -- $(seq -f %03g 1 34); fi
for n in "$@"; do echo "== $n $(date +%T)"; r$n; echo "   rc=$? $(date +%T)"; done
# post-processing applied after the runs (what was handed over):
#  003: kern.log = the kernel's 'oom_memcg=/r52oom' lines from dmesg, next to console.log
#  021: console.log cut to its last 200 lines; 027: console.log and rank 1's log dir removed (one rank's file);
#  033: console.log (launcher only) removed, the --log-dir kept
#  012 and 034 first ran with TORCH_DISTRIBUTED_DEBUG=DETAIL, which segfaults DDP on this torch at construction: rerun without
