#!/usr/bin/env bash
# Makes every raw run of the r48 blind set into $RAW/<name>/ (each run once). Views are cut by cut_views.sh.
# Usage: bash make_runs.sh NAME...   (as root; Slurm runs need `bash /work/blind/slurm48/start.sh` first)
set -uo pipefail
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
T=/work/blind/r48/set/gen/train.py
RAW=${RAW:-/work/blind/r48/raw}
source /work/blind/slurm48/env.sh
mkdir -p "$RAW"

run() {  # name, then body
  local name=$1; shift
  rm -rf "$RAW/$name"; mkdir -p "$RAW/$name"; cd "$RAW/$name" || exit 1
  echo "== $name $(date +%T)"
  "$@"
  echo "== $name done rc=$? $(date +%T)"
}

# --- failing runs ---
r_data() {  # torchrun --log-dir --tee 3, 4 ranks, logging style; rank 2 parses a torn JSON record
  $TR --nproc-per-node 4 --master-port 57010 --log-dir logs --tee 3 $T --mode data --fail-rank 2 --fail-step 25 \
     --style logging --all-ranks-log --steps 60 > console.log 2>&1
}
r_oom() {  # sbatch + srun --label, 6 tasks; task 4 joins a 1 GiB memory cgroup (v1) and grows until the kernel kills it
  mkdir -p /sys/fs/cgroup/memory/blind48_oom
  echo $((1024*1024*1024)) > /sys/fs/cgroup/memory/blind48_oom/memory.limit_in_bytes
  cat > job.sh <<EOF
#!/bin/bash
#SBATCH -J lm-pretrain -n 6 -o slurm-%j.out
export OOM_CGROUP=/sys/fs/cgroup/memory/blind48_oom
echo "job \$SLURM_JOB_ID on \$(hostname) started \$(date)"
srun --label $PY $T --mode oom --fail-rank 4 --fail-step 20 --steps 80 --port 57020 --all-ranks-log --log-every 10 --noise
echo "srun exited \$?"
EOF
  jid=$(sbatch --parsable job.sh); echo "$jid" > jobid
  while squeue -h -j "$jid" 2>/dev/null | grep -q .; do sleep 2; done
  scontrol show job "$jid" > scontrol.txt
  cat /sys/fs/cgroup/memory/blind48_oom/memory.failcnt > cgroup_failcnt.txt
}
r_hang() {  # torchrun 8 ranks (console only), json lines; rank 5 blocks silently; gloo timeout 30 s
  $TR --nproc-per-node 8 --master-port 57030 $T --mode hang --fail-rank 5 --fail-step 20 --style json \
     --timeout 30 --steps 60 > console.log 2>&1
}
r_segv() {  # mp.spawn 4 ranks, print style; rank 1 dereferences NULL through ctypes
  $PY $T --spawn 4 --port 57040 --mode segv --fail-rank 1 --fail-step 18 --all-ranks-log --steps 60 > console.log 2>&1
}
r_early() {  # two torchrun agents (nodes) with a c10d rendezvous, 3 procs each; rank 4 leaves the loop early (exit 0)
  for n in 0 1; do
    $TR --nnodes 2 --nproc-per-node 3 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:57050 --rdzv-id early48 \
        --node-rank $n --log-dir node$n/logs --tee 3 $T --mode earlyexit --fail-rank 4 --fail-step 30 \
        --style trainer --steps 80 --timeout 40 > node$n.console.log 2>&1 &
  done
  wait
}
r_mismatch() {  # torchrun --log-dir without --tee, 4 ranks, DETAIL debug; rank 3 all_reduces a 5-element metrics tensor
  TORCH_DISTRIBUTED_DEBUG=DETAIL $TR --nproc-per-node 4 --master-port 57060 --log-dir logs --redirects 3 $T \
     --mode mismatch --fail-rank 3 --fail-step 15 --steps 60 --style logging --all-ranks-log > console.log 2>&1
}
r_timelimit() {  # sbatch --time=1 with srun (no --label) 4 tasks of a long run
  cat > job.sh <<EOF
#!/bin/bash
#SBATCH -J lm-sft -n 4 --time=1 -o slurm-%j.out
srun $PY $T --steps 100000 --sleep 0.5 --port 57070 --style logging --log-every 10
EOF
  jid=$(sbatch --parsable job.sh); echo "$jid" > jobid
  while squeue -h -j "$jid" 2>/dev/null | grep -q .; do sleep 2; done
  scontrol show job "$jid" > scontrol.txt
}
r_cancel() {  # sbatch + srun --label 4 tasks; scancel after ~35 s
  cat > job.sh <<EOF
#!/bin/bash
#SBATCH -J lm-eval -n 4 -o slurm-%j.out
srun --label $PY $T --steps 100000 --sleep 0.3 --port 57075 --style json --log-every 10
EOF
  jid=$(sbatch --parsable job.sh); echo "$jid" > jobid
  sleep 35; scancel "$jid"
  while squeue -h -j "$jid" 2>/dev/null | grep -q .; do sleep 2; done
  sleep 2; scontrol show job "$jid" > scontrol.txt
}
r_rdzv() {  # torchrun --nnodes 2 with a c10d rendezvous; the second node never comes
  $TR --nnodes 2 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:57080 --rdzv-id rdzv48 \
      --rdzv-conf join_timeout=20 $T --steps 40 > console.log 2>&1
}
r_port() {  # an old process still holds the master port
  $PY -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',57090)); s.listen(); time.sleep(60)" & holder=$!
  sleep 1
  $TR --nproc-per-node 4 --master-port 57090 $T --steps 40 > console.log 2>&1
  kill $holder
}
r_perm() {  # torchrun --tee 3 (no log dir), 4 ranks; the checkpoint directory is a read-only bind mount (EROFS)
  mkdir -p ckpt && mount --bind ckpt ckpt && mount -o remount,ro,bind ckpt
  $TR --nproc-per-node 4 --master-port 57100 --tee 3 $T --ckpt-dir ckpt --ckpt-every 25 --steps 80 --style print \
      --noise > console.log 2>&1
  umount ckpt
}
r_asyncfull() {  # srun -o per task, 6 tasks, trainer style; rank 0's async writer thread writes to a full device
  mkdir -p ckpt
  for s in 000020 000040 000060; do ln -sf /dev/full ckpt/step_$s.pt; done
  srun -n 6 -o out-%t.log -e out-%t.log $PY $T --mode asyncfull --ckpt-dir ckpt --ckpt-every 20 --steps 80 \
       --style trainer --port 57110 > srun.console.log 2>&1
}
r_nan() {  # torchrun --log-dir --tee 3, 6 ranks; rank 3 gets an inf feature, its loss goes inf/nan
  $TR --nproc-per-node 6 --master-port 57120 --log-dir logs --tee 3 $T --mode nan --fail-rank 3 --fail-step 22 \
      --style logging --all-ranks-log --log-every 2 --steps 60 --noise > console.log 2>&1
}
r_worker() {  # torchrun 4 ranks, 2 DataLoader workers each; a worker of rank 1 is SIGKILLed
  $TR --nproc-per-node 4 --master-port 57130 $T --mode workerkill --fail-rank 1 --fail-step 20 --workers 2 \
      --steps 60 --style print > console.log 2>&1
}
r_emfile() {  # srun --label 4 tasks; rank 2 leaks a file handle per sample under ulimit -n 96
  srun -n 4 --label $PY $T --mode emfile --fail-rank 2 --steps 60 --port 57140 --style logging > console.log 2>&1
}
r_import() {  # torchrun 4 ranks; the config's fused optimizer (apex) is not installed
  $TR --nproc-per-node 4 --master-port 57150 $T --mode import --steps 40 > console.log 2>&1
}
r_corrupt() {  # mp.spawn 4 ranks; rank 0 resumes from a checkpoint whose write was torn (truncated)
  $PY -c "
import torch, torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
torch.save({'model': m.state_dict(), 'step': 40}, 'step_000040.pt')"
  mkdir -p ckpt && head -c $(( $(stat -c %s step_000040.pt) / 2 )) step_000040.pt > ckpt/step_000040.pt && rm step_000040.pt
  $PY $T --spawn 4 --port 57160 --mode corrupt --resume ckpt/step_000040.pt --steps 80 --style json > console.log 2>&1
}
r_shape() {  # sbatch running torchrun --log-dir --tee 3, 4 ranks; rank 3's shard has 20 features
  cat > job.sh <<EOF
#!/bin/bash
#SBATCH -J vit-ft -n 1 -o slurm-%j.out
echo "job \$SLURM_JOB_ID on \$(hostname)"
$TR --nproc-per-node 4 --master-port 57170 --log-dir logs --tee 3 $T --mode shape --fail-rank 3 --fail-step 17 \
    --steps 60 --style print --all-ranks-log --noise
EOF
  jid=$(sbatch --parsable job.sh); echo "$jid" > jobid
  while squeue -h -j "$jid" 2>/dev/null | grep -q .; do sleep 2; done
  scontrol show job "$jid" > scontrol.txt
}
r_ckpthang() {  # torchrun 4 ranks; rank 0's checkpoint path is a FIFO nobody reads: the save never returns
  mkdir -p ckpt && mkfifo ckpt/step_000030.pt
  $TR --nproc-per-node 4 --master-port 57180 $T --ckpt-dir ckpt --ckpt-every 30 --steps 100 --timeout 600 \
      --style logging > console.log 2>&1 & tr=$!
  sleep 55; cp console.log console.copied_midrun.log; ps -o pid,etime,cmd --ppid $tr > ps_at_copy.txt
  kill $tr; wait $tr
}
r_hub() {  # torchrun 4 ranks; rank 0 downloads the tokenizer from a mirror that is down
  $TR --nproc-per-node 4 --master-port 57190 $T --mode hub --steps 40 --timeout 30 > console.log 2>&1
}

# --- healthy runs ---
h_tee() {  # torchrun --log-dir --tee 3, 4 ranks, logging style with warning noise; finishes
  mkdir -p ckpt
  $TR --nproc-per-node 4 --master-port 57210 --log-dir logs --tee 3 $T --steps 60 --style logging --noise \
      --ckpt-dir ckpt --ckpt-every 20 > console.log 2>&1
}
h_midrun() {  # srun --label 6 tasks json; console copied mid-run, then the run finishes
  srun -n 6 --label $PY $T --steps 150 --sleep 0.2 --port 57220 --style json --all-ranks-log --noise > console.log 2>&1 & s=$!
  sleep 30; cp console.log console.copied_midrun.log
  wait $s
}
h_tqdm() {  # mp.spawn 4, tqdm progress bars; finishes
  $PY $T --spawn 4 --port 57230 --style tqdm --steps 80 --noise > console.log 2>&1
}
h_nodes() {  # two torchrun agents (nodes), c10d rendezvous, 2 procs each, trainer style; finishes
  for n in 0 1; do
    $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:57240 --rdzv-id ok48 \
        --node-rank $n --log-dir node$n/logs --redirects 3 $T --style trainer --steps 60 --all-ranks-log \
        > node$n.console.log 2>&1 &
  done
  wait
}
h_sbatch() {  # sbatch + srun -o per task (with warning noise); finishes
  cat > job.sh <<EOF
#!/bin/bash
#SBATCH -J lm-pretrain -n 4 -o slurm-%j.out
echo "job \$SLURM_JOB_ID on \$(hostname) started \$(date)"
srun -o task-%t.log $PY $T --steps 80 --port 57250 --style logging --all-ranks-log --noise --log-every 10
echo "srun exited \$?"
EOF
  jid=$(sbatch --parsable job.sh); echo "$jid" > jobid
  while squeue -h -j "$jid" 2>/dev/null | grep -q .; do sleep 2; done
  scontrol show job "$jid" > scontrol.txt
}
h_restart() {  # torchrun --max-restarts 1 (static rdzv): attempt 0 dies on a torn record at rank 2; meant to recover, but
  # attempt 1 really failed in gloo connectFullMesh (Connection refused): kept as the FAILING run raw/r_restartfail
  mkdir -p state
  $TR --nproc-per-node 4 --max-restarts 1 --master-port 57260 $T --mode restartonce --fail-rank 2 --fail-step 10 \
      --ckpt-dir state --steps 40 --style print > console.log 2>&1
}
h_logdir8() {  # torchrun --log-dir (no tee) 8 ranks, every rank prints; a rank file is copied mid-run
  $TR --nproc-per-node 8 --master-port 57270 --log-dir logs --redirects 3 $T --steps 120 --sleep 0.15 \
      --all-ranks-log --log-every 5 > console.log 2>&1 & t=$!
  sleep 28; mkdir -p midcopy; cp -r logs midcopy/
  wait $t
}

h_resume_ok() {  # mp.spawn 4 ranks, json; rank 0 resumes from an intact checkpoint (made as in r_corrupt, not cut) and trains on
  $PY -c "
import torch, torch.nn as nn
torch.manual_seed(0)
m = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
torch.save({'model': m.state_dict(), 'step': 40}, 'step_000040.pt')"
  mkdir -p ckpt && mv step_000040.pt ckpt/
  $PY $T --spawn 4 --port 57160 --mode corrupt --resume ckpt/step_000040.pt --steps 80 --style json > console.log 2>&1
}

h_midrun2() {  # torchrun --tee 3, 4 ranks, trainer style; console copied ~40 s in while training, then the run finishes
  $TR --nproc-per-node 4 --master-port 57280 --tee 3 $T --steps 400 --sleep 0.1 --style trainer --noise \
      --log-every 10 > console.log 2>&1 & t=$!
  sleep 40; cp console.log console.copied_midrun.log
  wait $t
}

h_restart2() {  # torchrun --max-restarts 1 with a c10d rendezvous: attempt 0 dies on a torn record at rank 2, attempt 1 should train on
  # (it failed like h_restart: gloo connectFullMesh refused on attempt 1; not used in the set)
  mkdir -p state
  $TR --nproc-per-node 4 --max-restarts 1 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:57290 $T --mode restartonce \
      --fail-rank 2 --fail-step 10 --ckpt-dir state --steps 40 --style print > console.log 2>&1
}

for name in "$@"; do run "$name" "$name"; done
