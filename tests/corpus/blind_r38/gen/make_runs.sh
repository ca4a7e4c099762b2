#!/usr/bin/env bash
# Regenerates every run of this set: bash make_runs.sh [key ...]   (default: all keys)
# Needs root (cgroup v1 memory limits, tmpfs mounts), /work/blind/venv and the private Slurm
# (bash /work/blind/slurm38/start.sh; this script sources its env.sh).
set -u
G=$(cd "$(dirname "$0")" && pwd)
SET=$(dirname "$G")
W=/work/blind/r38/work/gen
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
source /work/blind/slurm38/env.sh
mkdir -p "$W"

# key -> run number (shuffled so numbers say nothing)
declare -A NUM=(
 [baddata]=007 [oom]=015 [nan]=022 [diskfull]=003 [segv]=027 [hang]=011 [mismatch]=019 [thread]=001
 [rdzv]=030 [port]=013 [timelimit]=025 [cancel]=009 [restart_ok]=017 [restart_twice]=032 [erofs]=005
 [corrupt]=028 [dlkill]=021 [emfile]=012 [depmissing]=024 [uneven]=002 [hub]=018 [shape]=008 [dtype]=031
 [keyerror]=014 [diverge]=026 [ckpthang]=020
 [h_tee]=004 [h_sbatch]=010 [h_spawn]=016 [h_nodes]=023 [h_files]=029 [h_logdir]=006
)

base_env() {  # clean per-run environment
  unset FAULT FRANK FSTEP NOISY STYLE STEPS PREFETCH NO_DDP RESUME SAVE_EVERY TORCH_DISTRIBUTED_DEBUG LR STEP_SLEEP CKPT_DIR
  export PG_TIMEOUT=25 PYTHONUNBUFFERED=1 PYTHONWARNINGS=default
  export DATA_DIR=$W/$1/data CKPT_DIR=$W/$1/ckpt
  rm -rf "$W/$1"; mkdir -p "$W/$1"
}
rundir() { local d=$SET/runs/${NUM[$1]}; rm -rf "$d"; mkdir -p "$d"; echo "$d"; }
mkdata() { $PY $G/train.py mkdata "$1"; }
sbatch_run() {  # sbatch_run KEY DIR NTASKS SRUN_OPTS [SBATCH_OPTS...]  -> waits; prints job id
  local key=$1 d=$2 n=$3 sopts=$4; shift 4
  cat > "$W/$key/job.sh" <<EOF
#!/bin/bash
#SBATCH -J pretrain-tiny
#SBATCH -n $n
#SBATCH -o $d/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
echo "job \$SLURM_JOB_ID on \$(hostname) tasks=\$SLURM_NTASKS start \$(date -Is)"
srun $sopts $PY $G/train.py
echo "srun exited \$? at \$(date -Is)"
EOF
  (cd "$d" && sbatch --parsable --wait "$@" "$W/$key/job.sh") | tail -1
}

r_baddata() {  # torchrun --tee, logging style, corrupt sample in rank 2's shard, long healthy chatter
  base_env baddata; export STYLE=logging STEPS=490 FAULT=baddata FRANK=2 FSTEP=440 NOISY=1; mkdata 4
  local d; d=$(rundir baddata); cd "$d"
  $TR --nproc-per-node 4 --master-port 47101 --tee 3 $G/train.py > console.log 2>&1
}
r_oom() {  # torchrun --log-dir without tee; rank 1 put in a 300MB-over-RSS memory cgroup and grows -> kernel OOM kill
  base_env oom; export STYLE=print STEPS=500 FAULT=oom FRANK=1 FSTEP=380; mkdata 4
  local d; d=$(rundir oom); cd "$d"
  $TR --nproc-per-node 4 --master-port 47102 --log-dir torchrun_logs --redirects 3 $G/train.py > console.log 2>&1
  local pid; pid=$(grep -oE 'exitcode: -9\) local_rank: [0-9]+ \(pid: [0-9]+' console.log | grep -oE '[0-9]+$' | head -1)
  dmesg -T | grep -E "job_${pid}|Killed process ${pid}|memory: usage|Memory cgroup" | grep -E "job_${pid}|process ${pid}" > kern.log || true
}
r_nan() {  # sbatch + srun --label, JSON lines, a NaN feature in rank 3's shard
  base_env nan; export STYLE=json STEPS=400 FAULT=nan FRANK=3 FSTEP=300 PORT=47103; mkdata 4
  local d; d=$(rundir nan); sbatch_run nan "$d" 4 "--label"
}
r_diskfull() {  # srun -o per task; rank 0 saves to a 1 MB tmpfs -> ENOSPC
  base_env diskfull; export STYLE=trainer STEPS=300 FAULT=diskfull FRANK=0 FSTEP=200 PORT=47104; mkdata 4
  mkdir -p $W/diskfull/ckpt && mount -t tmpfs -o size=1m tmpfs $W/diskfull/ckpt
  local d; d=$(rundir diskfull); sbatch_run diskfull "$d" 4 "-o $d/task-%t.out"
  umount $W/diskfull/ckpt
}
r_segv() {  # mp.spawn, rank 2 crashes in a native call (NULL deref)
  base_env segv; export STYLE=print STEPS=400 FAULT=segv FRANK=2 FSTEP=250 NOISY=1; mkdata 4
  local d; d=$(rundir segv); cd "$d"
  $PY $G/train.py spawn 4 47105 > console.log 2>&1
}
r_hang() {  # torchrun --tee; rank 1 blocks forever before its forward; the others hit the gloo timeout
  base_env hang; export STYLE=print STEPS=400 FAULT=hang FRANK=1 FSTEP=240; mkdata 4
  local d; d=$(rundir hang); cd "$d"
  $TR --nproc-per-node 4 --master-port 47106 --tee 3 $G/train.py > console.log 2>&1
}
r_mismatch() {  # torchrun, DETAIL debug, rank 3 all_reduces an extra stats vector
  base_env mismatch; export STYLE=print STEPS=300 FAULT=mismatch FRANK=3 FSTEP=150 NO_DDP=1 TORCH_DISTRIBUTED_DEBUG=DETAIL; mkdata 4
  local d; d=$(rundir mismatch); cd "$d"
  $TR --nproc-per-node 4 --master-port 47107 $G/train.py > console.log 2>&1
}
r_thread() {  # sbatch srun --label; rank 2's prefetch thread dies on a missing shard file; main thread waits
  base_env thread; export STYLE=logging STEPS=300 FAULT=missing_shard FRANK=2 PREFETCH=1 PORT=47108; mkdata 4
  local d; d=$(rundir thread); sbatch_run thread "$d" 4 "--label"
}
r_rdzv() {  # two torchrun agents (nnodes=2); the second one was given a wrong rendezvous port
  base_env rdzv; export STYLE=print STEPS=100; mkdata 4
  local d; d=$(rundir rdzv); cd "$d"
  $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:47109 --rdzv-id job77 \
      --rdzv-conf join_timeout=30 $G/train.py > node0.log 2>&1 &
  local p=$!; sleep 2
  $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:47119 --rdzv-id job77 \
      --rdzv-conf join_timeout=30 $G/train.py > node1.log 2>&1
  wait $p
}
r_port() {  # the master port is still held by a previous job's leftover process
  base_env port; export STYLE=print STEPS=100; mkdata 2
  local d; d=$(rundir port); cd "$d"
  $PY -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',47110)); s.listen(); time.sleep(90)" & local lp=$!
  sleep 1
  $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 47110 $G/train.py > console.log 2>&1
  kill $lp
}
r_timelimit() {  # sbatch --time=1 with a run that needs longer; srun without --label
  base_env timelimit; export STYLE=trainer STEPS=100000 STEP_SLEEP=0.3 PORT=47111; mkdata 4
  local d; d=$(rundir timelimit); sbatch_run timelimit "$d" 4 "" --time=1
}
r_cancel() {  # sbatch; the job is cancelled by scancel while training (operator / scheduler request)
  base_env cancel; export STYLE=logging STEPS=100000 STEP_SLEEP=0.1 PORT=47112; mkdata 2
  local d; d=$(rundir cancel)
  cat > "$W/cancel/job.sh" <<EOF
#!/bin/bash
#SBATCH -J pretrain-tiny
#SBATCH -n 2
#SBATCH -o $d/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
srun --label $PY $G/train.py
EOF
  local j; j=$(cd "$d" && sbatch --parsable "$W/cancel/job.sh")
  sleep 25; scancel "$j"; sleep 12
}
r_restart_ok() {  # torchrun --max-restarts 1; attempt 0: rank 1 OOM-killed (cgroup); attempt 1 finishes
  base_env restart_ok; export STYLE=print STEPS=300 FAULT=oom_first FRANK=1 FSTEP=200; mkdata 4
  local d; d=$(rundir restart_ok); cd "$d"
  $TR --nproc-per-node 4 --master-port 47113 --max-restarts 1 --tee 3 $G/train.py > console.log 2>&1
}
r_restart_twice() {  # torchrun --max-restarts 1 --log-dir; a corrupt sample in rank 2's shard fails both attempts
  base_env restart_twice; export STYLE=json STEPS=300 FAULT=baddata FRANK=2 FSTEP=120; mkdata 4
  local d; d=$(rundir restart_twice); cd "$d"
  $TR --nproc-per-node 4 --master-port 47114 --max-restarts 1 --log-dir logs --redirects 3 $G/train.py > console.log 2>&1
}
r_erofs() {  # sbatch srun --label; rank 0's checkpoint dir is on a read-only mount
  base_env erofs; export STYLE=print STEPS=300 FAULT=erofs FRANK=0 FSTEP=150 PORT=47115; mkdata 4
  mkdir -p $W/erofs/ckpt && mount -t tmpfs -o ro,size=4m tmpfs $W/erofs/ckpt
  local d; d=$(rundir erofs); sbatch_run erofs "$d" 4 "--label"
  umount $W/erofs/ckpt
}
r_corrupt() {  # torchrun --tee; resume from a checkpoint truncated by an earlier torn write; rank 0 loads it
  base_env corrupt; export STYLE=logging STEPS=100; mkdata 4
  $PY - <<EOF
import torch, torch.nn as nn
m = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
torch.save({"model": m.state_dict(), "ema": torch.randn(100000)}, "$W/corrupt/last.pt")
b = open("$W/corrupt/last.pt", "rb").read(); open("$W/corrupt/last.pt", "wb").write(b[: len(b) // 2])
EOF
  export RESUME=$W/corrupt/last.pt
  local d; d=$(rundir corrupt); cd "$d"
  $TR --nproc-per-node 4 --master-port 47116 --tee 3 $G/train.py > console.log 2>&1
}
r_dlkill() {  # torchrun --tee; a DataLoader worker of rank 1 is OOM-killed by its memory cgroup
  base_env dlkill; export STYLE=print STEPS=300 FAULT=dlkill FRANK=1 FSTEP=200 NOISY=1; mkdata 4
  local d; d=$(rundir dlkill); cd "$d"
  $TR --nproc-per-node 4 --master-port 47117 --tee 3 $G/train.py > console.log 2>&1
}
r_emfile() {  # sbatch srun --label; rank 3 has a 96-fd ulimit and leaks a file per sample
  base_env emfile; export STYLE=json STEPS=300 FAULT=emfile FRANK=3 FSTEP=150 PORT=47118; mkdata 4
  local d; d=$(rundir emfile); sbatch_run emfile "$d" 4 "--label"
}
r_depmissing() {  # srun -o per task; every task imports a compiled extension that is not in the image
  base_env depmissing; export STYLE=print STEPS=100 FAULT=depmissing PORT=47120 NOISY=1; mkdata 4
  local d; d=$(rundir depmissing); sbatch_run depmissing "$d" 4 "-o $d/task-%t.out"
}
r_uneven() {  # torchrun --tee; rank 2's shard is shorter, it leaves the loop and exits 0; the others lose their peer
  base_env uneven; export STYLE=print STEPS=500 FAULT=uneven FRANK=2 FSTEP=330; mkdata 4
  local d; d=$(rundir uneven); cd "$d"
  $TR --nproc-per-node 4 --master-port 47121 --tee 3 $G/train.py > console.log 2>&1
}
r_hub() {  # torchrun; rank 0 fetches the tokenizer from the hub (unreachable), the others wait in a barrier
  base_env hub; export STYLE=logging STEPS=100 FAULT=hub FRANK=0 FSTEP=0; mkdata 4
  local d; d=$(rundir hub); cd "$d"
  $TR --nproc-per-node 4 --master-port 47122 $G/train.py > console.log 2>&1
}
r_shape() {  # mp.spawn; a sample with 17 features in rank 1's shard
  base_env shape; export STYLE=trainer STEPS=400 FAULT=shape FRANK=1 FSTEP=260; mkdata 4
  local d; d=$(rundir shape); cd "$d"
  $PY $G/train.py spawn 4 47123 > console.log 2>&1
}
r_dtype() {  # sbatch srun --label; a float64 sample in rank 3's shard
  base_env dtype; export STYLE=print STEPS=400 FAULT=dtype FRANK=3 FSTEP=280 PORT=47124; mkdata 4
  local d; d=$(rundir dtype); sbatch_run dtype "$d" 4 "--label"
}
r_keyerror() {  # torchrun --tee; rank 2 KeyError, logs it, releases the group and uploads a crash report
  base_env keyerror; export STYLE=logging STEPS=400 FAULT=keyerror FRANK=2 FSTEP=250 NOISY=1; mkdata 4
  local d; d=$(rundir keyerror); cd "$d"
  $TR --nproc-per-node 4 --master-port 47125 --tee 3 $G/train.py > console.log 2>&1
}
r_diverge() {  # sbatch srun (no label); the LR jumps 60x at step 150, the job's divergence guard stops it
  base_env diverge; export STYLE=trainer STEPS=400 FAULT=diverge FSTEP=150 PORT=47126; mkdata 4
  local d; d=$(rundir diverge); sbatch_run diverge "$d" 4 ""
}
r_ckpthang() {  # two torchrun agents (c10d) x 2 procs; rank 0's async checkpoint writer deadlocks
  base_env ckpthang; export STYLE=logging STEPS=300 FAULT=ckpt_hang FRANK=0 FSTEP=200; mkdata 4
  local d; d=$(rundir ckpthang); cd "$d"
  $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:47127 --rdzv-id ck1 --tee 3 \
      $G/train.py > nodeA.log 2>&1 &
  local p=$!
  $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:47127 --rdzv-id ck1 --tee 3 \
      $G/train.py > nodeB.log 2>&1
  wait $p
}
# ---- runs that finish
r_h_tee() { base_env h_tee; export STYLE=logging STEPS=900 NOISY=1; mkdata 4
  local d; d=$(rundir h_tee); cd "$d"; $TR --nproc-per-node 4 --master-port 47131 --tee 3 $G/train.py > console.log 2>&1; }
r_h_sbatch() { base_env h_sbatch; export STYLE=json STEPS=400 NOISY=1 SAVE_EVERY=100 PORT=47132; mkdata 4
  local d; d=$(rundir h_sbatch); sbatch_run h_sbatch "$d" 4 "--label"; }
r_h_spawn() { base_env h_spawn; export STYLE=bar STEPS=500 NOISY=1; mkdata 4
  local d; d=$(rundir h_spawn); cd "$d"; $PY $G/train.py spawn 4 47133 > console.log 2>&1; }
r_h_nodes() { base_env h_nodes; export STYLE=trainer STEPS=400 NOISY=1; mkdata 4
  local d; d=$(rundir h_nodes); cd "$d"
  $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:47134 --rdzv-id hn --tee 3 $G/train.py > nodeA.log 2>&1 &
  local p=$!
  $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:47134 --rdzv-id hn --tee 3 $G/train.py > nodeB.log 2>&1
  wait $p; }
r_h_files() { base_env h_files; export STYLE=print STEPS=400 NOISY=1 PORT=47135; mkdata 4
  local d; d=$(rundir h_files); sbatch_run h_files "$d" 4 "-o $d/task-%t.out"; }
r_h_logdir() { base_env h_logdir; export STYLE=print STEPS=600 NOISY=1 SAVE_EVERY=200 TORCH_DISTRIBUTED_DEBUG=INFO; mkdata 4
  local d; d=$(rundir h_logdir); cd "$d"; $TR --nproc-per-node 4 --master-port 47136 --log-dir logs --redirects 3 $G/train.py > console.log 2>&1; }

keys=("$@"); [ ${#keys[@]} -eq 0 ] && keys=("${!NUM[@]}")
for k in "${keys[@]}"; do
  SECONDS=0; ( r_$k ); echo "$k -> ${NUM[$k]} (${SECONDS}s)"
done
# leftover memory cgroups of killed processes
for c in /sys/fs/cgroup/memory/job_*; do [ -d "$c" ] && rmdir "$c" 2>/dev/null; done
true
