#!/usr/bin/env bash
# Regenerates runs/NNN. Usage: bash make_runs.sh 001 002 ...  (no args: all)
# Needs: /work/blind/venv (CPU torch), the private Slurm (bash /work/blind/slurm41/start.sh) for srun/sbatch runs.
set -u
SET=/work/blind/r41/set
GEN=$SET/gen
TRAIN=$GEN/train.py
SCR=/work/blind/r41/work
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
export PATH=/work/blind/venv/bin:$PATH
source /work/blind/slurm41/env.sh
export MASTER_ADDR=127.0.0.1 PYTHONUNBUFFERED=1

prep() { # prep NNN -> cd into fresh run dir, export WORKDIR/port
  R=$SET/runs/$1; rm -rf "$R" "$SCR/$1"; mkdir -p "$R" "$SCR/$1"; cd "$R"
  export WORKDIR=$SCR/$1 MASTER_PORT=$((50000 + 10#$1 * 10))
}
trn() { # torchrun on one node, static rendezvous on our port
  local n=$1; shift
  $TR --nnodes 1 --nproc-per-node "$n" --master-addr 127.0.0.1 --master-port "$MASTER_PORT" "$@"
}

# ---- pipeline: stage 1 sends a half-width activation after a config flip (gloo size enforce abort)
run_001() { prep 001
  MODE=pipe FAULT=wrong_shape BAD_RANK=1 BAD_STEP=140 STEPS=400 PG_TIMEOUT=30 \
    trn 4 --log-dir logs --tee 3 $TRAIN > console.log 2>&1; }

# ---- pipeline via srun --label: stage 2 matmul shape error at step 120
run_002() { prep 002
  MODE=pipe FAULT=raise_shape BAD_RANK=2 BAD_STEP=120 STEPS=300 LOGSTYLE=logging PG_TIMEOUT=30 \
    srun -n 4 -J pp-train --label --kill-on-bad-exit=1 $PY $TRAIN > console.log 2>&1; }

# ---- pipeline (isend/irecv) torchrun console only: stage 2 blocks on a lock, neighbours time out
run_003() { prep 003
  MODE=pipe PIPE_ASYNC=1 FAULT=hang BAD_RANK=2 BAD_STEP=80 STEPS=300 PG_TIMEOUT=25 \
    trn 4 $TRAIN > console.log 2>&1; }

# ---- healthy: pipeline with per-stage warnings, --log-dir --tee
run_004() { prep 004
  MODE=pipe WARN=1 STEPS=240 PG_TIMEOUT=30 trn 4 --log-dir logs --tee 3 $TRAIN > console.log 2>&1; }

# ---- sbatch, srun -o per task: pipeline of 3, stage 1 casts to float64
run_005() { prep 005
  cat > "$SCR/005/job.sbatch" <<EOF
#!/bin/bash
#SBATCH -J pipe3
#SBATCH -n 3
#SBATCH -o $R/slurm-%j.out
export MODE=pipe FAULT=dtype BAD_RANK=1 BAD_STEP=60 STEPS=200 PG_TIMEOUT=30 LOGSTYLE=trainer
srun -o $R/task-%t.out $PY $TRAIN
EOF
  sbatch -W "$SCR/005/job.sbatch" > /dev/null; }

# ---- subgroups tp=2 x dp=2, torchrun --log-dir without tee: rank 3 blocks after its tp all-reduce
run_006() { prep 006
  MODE=sub FAULT=hang BAD_RANK=3 BAD_STEP=70 STEPS=300 PG_TIMEOUT=25 LOGSTYLE=json \
    trn 4 --log-dir logs $TRAIN > console.log 2>&1; }

# ---- subgroups 8 ranks via srun --label: autograd in-place error on rank 5
run_007() { prep 007
  MODE=sub FAULT=inplace BAD_RANK=5 BAD_STEP=40 STEPS=200 PG_TIMEOUT=30 \
    srun -n 8 -J tpdp --label $PY $TRAIN > console.log 2>&1; }

# ---- subgroups 6 ranks, mp.spawn, DETAIL debug: rank 2 all-reduces a longer gradient in its dp group
run_008() { prep 008
  MODE=sub TP=2 FAULT=mismatch BAD_RANK=2 BAD_STEP=30 STEPS=200 PG_TIMEOUT=30 LOGSTYLE=logging \
    TORCH_DISTRIBUTED_DEBUG=DETAIL $PY $TRAIN --spawn 6 > console.log 2>&1; }

# ---- healthy: subgroup barrier slow on one rank but completes (srun --label)
run_009() { prep 009
  MODE=sub FAULT=slow_barrier BAD_RANK=2 BAD_STEP=100 STEPS=150 PG_TIMEOUT=60 \
    srun -n 4 -J tpdp --label $PY $TRAIN > console.log 2>&1; }

# ---- elastic 2:2, two agents, agent B (and its workers) SIGKILLed mid-run
elastic() { # elastic NNN MIN:MAX
  local nn=$2
  MODE=ddp FAULT=forever SLEEP=0.05 STEPS=300 PG_TIMEOUT=30 \
    $TR --nnodes "$nn" --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$MASTER_PORT \
      --rdzv-id elastic$1 --max-restarts 2 --rdzv-conf join_timeout=30,last_call_timeout=${LCT:-2} \
      $TRAIN > node-a.log 2>&1 &
  local a=$!
  # agent A must host the c10d store: start B only once A is up
  for _ in $(seq 1 100); do grep -q "OMP_NUM_THREADS" node-a.log 2>/dev/null && break; sleep 0.2; done; sleep 4
  MODE=ddp FAULT=forever SLEEP=0.05 STEPS=300 PG_TIMEOUT=30 \
    setsid bash -c "echo \$\$ > $WORKDIR/agent_b.pgid; exec $TR --nnodes $nn --nproc-per-node 2 --rdzv-backend c10d \
      --rdzv-endpoint 127.0.0.1:$MASTER_PORT --rdzv-id elastic$1 --max-restarts 2 \
      --rdzv-conf join_timeout=30,last_call_timeout=${LCT:-2} $TRAIN" > node-b.log 2>&1 &
  local b=$!
  # wait until training is stepping, then the second "node" disappears (agent and its workers)
  for _ in $(seq 1 600); do grep -q "step [3-9]0 " node-a.log node-b.log 2>/dev/null && break; sleep 0.2; done
  if [ -n "${NOKILL:-}" ]; then wait "$a"; wait "$b"; return; fi
  # torchrun starts its workers in their own sessions: kill the agent and its worker pids explicitly
  local ag; ag=$(cat $WORKDIR/agent_b.pgid); local kids; kids=$(ps -o pid= --ppid "$ag")
  kill -9 "$ag" $kids; echo "killed agent b $ag and workers $kids at $(date +%T)" > $WORKDIR/kill.txt
  wait "$a"; wait "$b" 2>/dev/null
}
run_010() { prep 010; elastic 010 2:2; }
# ---- healthy: elastic 1:2 scale-down that continues on the remaining agent
# ---- (first attempt at a scale-down, kept as a run): agent B hosted the c10d store and was SIGKILLed
# run_011: made by the first version of elastic() (sleep 2 instead of waiting for A), 1:2 -> A lost the store
run_011() { prep 011; echo "see comment: regenerate with a 2-second head start for A under load"; }
# ---- healthy: elastic 1:2 scale-down that continues on the remaining agent (A hosts the store)
run_037() { prep 037; elastic 037 1:2; }  # became a failed re-rendezvous on scale-up (see labels)
# ---- healthy: the same scale-down, both agents in the first round (last_call_timeout 15)
run_038() { prep 038; LCT=15 elastic 038 1:2; }  # also failed: restarted workers could not rebuild the gloo mesh
# ---- healthy: two elastic agents (1:2), nobody leaves
run_039() { prep 039; NOKILL=1 LCT=15 elastic 039 1:2; }

# ---- srun without --label: NaN on rank 3 at step 1500 of 2000, warnings along the way
run_012() { prep 012
  MODE=ddp FAULT=nan BAD_RANK=3 BAD_STEP=1500 STEPS=2000 LOG_EVERY=100 WARN=1 PG_TIMEOUT=30 \
    srun -n 4 -J ddp-long $PY $TRAIN > console.log 2>&1; }

# ---- mp.spawn: in-place autograd error on rank 1
run_013() { prep 013
  MODE=ddp FAULT=inplace BAD_RANK=1 BAD_STEP=25 STEPS=200 PG_TIMEOUT=30 \
    $PY $TRAIN --spawn 4 > console.log 2>&1; }

# ---- torchrun --tee: rank 2's graph stops using a module (DDP unused parameters)
run_014() { prep 014
  MODE=ddp FAULT=unused BAD_RANK=2 BAD_STEP=40 STEPS=200 PG_TIMEOUT=30 \
    trn 3 --tee 3 $TRAIN > console.log 2>&1; }

# ---- torchrun --log-dir --tee: torch.compile on rank 1 only, shape error in compiled forward
run_015() { prep 015
  MODE=ddp FAULT=compile BAD_RANK=1 BAD_STEP=30 STEPS=200 PG_TIMEOUT=30 \
    trn 4 --log-dir logs --tee 3 $TRAIN > console.log 2>&1; }

# ---- srun --label: segfault in rank 2
run_016() { prep 016
  MODE=ddp FAULT=segv BAD_RANK=2 BAD_STEP=60 STEPS=200 PG_TIMEOUT=30 \
    srun -n 4 -J ddp --label $PY $TRAIN > console.log 2>&1; }

# ---- torchrun: rank 3 returns early (exit 0), others lose it
run_017() { prep 017
  MODE=ddp FAULT=early_exit BAD_RANK=3 BAD_STEP=70 STEPS=200 PG_TIMEOUT=30 LOGSTYLE=trainer \
    trn 4 $TRAIN > console.log 2>&1; }

# ---- sbatch with srun -o per task: rank 1 over a cgroup v1 memory limit (kernel OOM kill)
run_018() { prep 018
  CG=/sys/fs/cgroup/memory/blind41_r018; rmdir $CG 2>/dev/null; mkdir -p $CG
  echo $((700*1024*1024)) > $CG/memory.limit_in_bytes; echo $((700*1024*1024)) > $CG/memory.memsw.limit_in_bytes
  cat > "$SCR/018/job.sbatch" <<EOF
#!/bin/bash
#SBATCH -J ddp3
#SBATCH -n 3
#SBATCH -o $R/slurm-%j.out
export MODE=ddp FAULT=oom BAD_RANK=1 BAD_STEP=40 STEPS=400 PG_TIMEOUT=30 OOM_CGROUP=$CG
srun -o $R/task-%t.out $PY $TRAIN
EOF
  sbatch -W "$SCR/018/job.sbatch" > /dev/null
  grep -h "oom_kill \|under_oom" $CG/memory.oom_control > "$SCR/018/oom_control.txt"; rmdir $CG 2>/dev/null; }

# ---- torchrun --log-dir --tee, 6 ranks: watcher SIGKILLs rank 4 when its RSS passes 900 MB
run_019() { prep 019
  MODE=ddp FAULT=oom BAD_RANK=4 BAD_STEP=40 STEPS=400 PG_TIMEOUT=30 LOGSTYLE=logging \
    trn 6 --log-dir logs --tee 3 $TRAIN > console.log 2>&1 &
  local t=$!
  ( while kill -0 $t 2>/dev/null; do
      p=$(cat $WORKDIR/pid_rank4 2>/dev/null)
      if [ -n "$p" ]; then rss=$(awk '/VmRSS/ {print $2}' /proc/$p/status 2>/dev/null)
        if [ -n "$rss" ] && [ "$rss" -gt 900000 ]; then kill -9 "$p"; echo "killed $p rss=$rss" > $WORKDIR/watcher.txt; break; fi; fi
      sleep 0.2; done ) &
  wait $t; }

# ---- mp.spawn: background prefetch thread on rank 2 hits a missing shard
run_020() { prep 020
  MODE=ddp FAULT=thread_data BAD_RANK=2 BAD_STEP=40 STEPS=200 PG_TIMEOUT=30 \
    $PY $TRAIN --spawn 4 > console.log 2>&1; }

# ---- srun -o per task (no sbatch): DataLoader worker of rank 1 killed by SIGKILL
run_021() { prep 021
  MODE=ddp FAULT=dlworker BAD_RANK=1 BAD_STEP=30 STEPS=200 PG_TIMEOUT=30 \
    srun -n 4 -J ddp-dl --kill-on-bad-exit=1 -o "$R/out-%t.txt" $PY $TRAIN > /dev/null 2>&1; }

# ---- healthy: mp.spawn with a tqdm-like bar and alarming warnings (inf grads skipped once)
run_022() { prep 022
  MODE=ddp WARN=1 STEPS=300 PG_TIMEOUT=30 LOGSTYLE=bar LOG_EVERY=5 $PY $TRAIN --spawn 4 > console.log 2>&1; }

# ---- torchrun, trainer-style log: truncated JSONL record on rank 3
run_023() { prep 023
  MODE=ddp FAULT=jsonl BAD_RANK=3 BAD_STEP=90 STEPS=200 PG_TIMEOUT=30 LOGSTYLE=trainer \
    trn 4 $TRAIN > console.log 2>&1; }

# ---- srun --label 2 ranks: rank 1 hits its open-files limit
run_024() { prep 024
  MODE=ddp FAULT=emfile BAD_RANK=1 BAD_STEP=20 STEPS=200 PG_TIMEOUT=30 \
    srun -n 2 -J ddp --label $PY $TRAIN > console.log 2>&1; }

# ---- torchrun --log-dir --tee: rank 0's checkpoint save hits ENOSPC (path on a full device)
run_025() { prep 025
  mkdir -p $WORKDIR/ckpt; ln -s /dev/full $WORKDIR/ckpt/step150.pt
  MODE=ddp FAULT=ckpt_full BAD_STEP=150 STEPS=300 PG_TIMEOUT=30 \
    trn 4 --log-dir logs --tee 3 $TRAIN > console.log 2>&1; }

# ---- sbatch: rank 0 resumes from a torn checkpoint
run_026() { prep 026
  $PY -c "import torch,sys;sys.path.insert(0,'$GEN');import os;os.environ['FAULT']='x';import train;torch.save({'model':train.Net().state_dict(),'step':500},'$WORKDIR/step500.pt')"
  head -c 1500 $WORKDIR/step500.pt > $WORKDIR/last.pt
  cat > "$SCR/026/job.sbatch" <<EOF
#!/bin/bash
#SBATCH -J resume2
#SBATCH -n 2
#SBATCH -o $R/slurm-%j.out
export MODE=ddp FAULT=ckpt_corrupt RESUME=$WORKDIR/last.pt STEPS=200 PG_TIMEOUT=30 LOGSTYLE=logging
srun --label $PY $TRAIN
EOF
  sbatch -W "$SCR/026/job.sbatch" > /dev/null; }

# ---- srun --label: all ranks load a checkpoint whose head has another shape
run_027() { prep 027
  $PY -c "import torch,sys;sys.path.insert(0,'$GEN');import train;torch.save({'model':train.Net().state_dict(),'step':800},'$WORKDIR/step800.pt')"
  MODE=ddp FAULT=ckpt_keys RESUME=$WORKDIR/step800.pt STEPS=200 PG_TIMEOUT=30 \
    srun -n 4 -J ft --label $PY $TRAIN > console.log 2>&1; }

# ---- torchrun JSON logs: loss diverges after a LR schedule change (both ranks alike)
run_028() { prep 028
  MODE=ddp FAULT=diverge BAD_STEP=300 STEPS=1000 PG_TIMEOUT=30 LOGSTYLE=json \
    trn 2 $TRAIN > console.log 2>&1; }

# ---- sbatch --time=1: the job outlives its time limit
run_029() { prep 029
  cat > "$SCR/029/job.sbatch" <<EOF
#!/bin/bash
#SBATCH -J long2
#SBATCH -n 2
#SBATCH --time=1
#SBATCH -o $R/slurm-%j.out
export MODE=ddp FAULT=forever SLEEP=0.1 STEPS=100000 LOG_EVERY=50 PG_TIMEOUT=30
srun --label $PY $TRAIN
EOF
  sbatch -W "$SCR/029/job.sbatch" > /dev/null; }

# ---- sbatch cancelled (scancel) while training
run_030() { prep 030
  cat > "$SCR/030/job.sbatch" <<EOF
#!/bin/bash
#SBATCH -J ddp4
#SBATCH -n 4
#SBATCH -o $R/slurm-%j.out
export MODE=ddp FAULT=forever SLEEP=0.1 STEPS=100000 LOG_EVERY=50 PG_TIMEOUT=30 LOGSTYLE=logging
srun $PY $TRAIN
EOF
  jid=$(sbatch --parsable "$SCR/030/job.sbatch")
  for _ in $(seq 1 90); do grep -q "step 100 " $R/slurm-$jid.out 2>/dev/null && break; sleep 1; done
  scancel "$jid"; sleep 12; }

# ---- one torchrun agent of a 2-node job: the other never arrives
run_031() { prep 031
  MODE=ddp STEPS=100 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$MASTER_PORT \
    --rdzv-id job031 --rdzv-conf join_timeout=30 $TRAIN > console.log 2>&1; }

# ---- srun: master port already bound by a stale process
run_032() { prep 032
  $PY -c "import socket,time;s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);s.bind(('0.0.0.0',$MASTER_PORT));s.listen(8);time.sleep(150)" &
  local sq=$!; sleep 2
  MODE=ddp STEPS=100 PG_TIMEOUT=20 srun -n 2 -J ddp --label --kill-on-bad-exit=1 $PY $TRAIN > console.log 2>&1
  kill $sq; }

# ---- FSDP2 on gloo, torchrun --log-dir --tee: rank 1 built the model with a stale hidden size
run_033() { prep 033
  MODE=fsdp FAULT=fsdp_shape BAD_RANK=1 STEPS=50 PG_TIMEOUT=30 \
    trn 4 --log-dir logs --tee 3 $TRAIN > console.log 2>&1; }

# ---- FSDP2 srun --label: rank 3 reloads a state dict with renamed keys
run_034() { prep 034
  MODE=fsdp FAULT=fsdp_sd BAD_RANK=3 STEPS=60 PG_TIMEOUT=30 LOGSTYLE=logging \
    srun -n 4 -J fsdp --label $PY $TRAIN > console.log 2>&1; }

# ---- healthy: pipeline that prints a caught, retried store handshake timeout
run_035() { prep 035
  MODE=pipe FAULT=p2p_retry BAD_STEP=50 STEPS=150 PG_TIMEOUT=30 trn 3 $TRAIN > console.log 2>&1; }

# ---- healthy: sbatch FSDP2 with warnings
run_036() { prep 036
  cat > "$SCR/036/job.sbatch" <<EOF
#!/bin/bash
#SBATCH -J fsdp4
#SBATCH -n 4
#SBATCH -o $R/slurm-%j.out
export MODE=fsdp WARN=1 STEPS=120 PG_TIMEOUT=30 LOGSTYLE=trainer
srun --label $PY $TRAIN
EOF
  sbatch -W "$SCR/036/job.sbatch" > /dev/null; }

ALL=$(declare -F | awk '{print $3}' | grep '^run_' | sed 's/run_//')
for n in ${@:-$ALL}; do ( run_$n ) ; echo "run $n done"; done
