#!/usr/bin/env bash
# Regenerates every run in ../runs/NNN. Usage: bash make_runs.sh [NNN ...]  (default: all)
# Needs root (cgroup v1 memory, tmpfs mounts) and the private Slurm (bash /work/blind/slurm50/start.sh).
set -u
GEN=$(cd "$(dirname "$0")" && pwd)
RUNS=$GEN/../runs
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
export PATH=/work/blind/venv/bin:$PATH
T=$GEN/train.py
source /work/blind/slurm50/env.sh

setup() {
  # cgroup v1 memory limit for the rank that joins it (real kernel OOM kill)
  mkdir -p /sys/fs/cgroup/memory/b50mem
  echo 0 > /sys/fs/cgroup/memory/b50mem/memory.swappiness 2>/dev/null || true
  echo $((700*1024*1024)) > /sys/fs/cgroup/memory/b50mem/memory.limit_in_bytes
  # read-only filesystem for the checkpoint dir
  mkdir -p /mnt/b50ro; mountpoint -q /mnt/b50ro || mount -t tmpfs -o size=1m tmpfs /mnt/b50ro
  mount -o remount,ro /mnt/b50ro
  # tiny filesystem that fills up
  mkdir -p /mnt/b50small; mountpoint -q /mnt/b50small || mount -t tmpfs -o size=256k tmpfs /mnt/b50small
  # checkpoints for the resume runs
  mkdir -p /tmp/b50ck
  $PY - <<'PY'
import torch, torch.nn as nn
m = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 2))
torch.save({"model": m.state_dict(), "step": 500}, "/tmp/b50ck/step_000500.pt")
m = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
torch.save({"model": m.state_dict(), "step": 900, "blob": torch.randn(200000)}, "/tmp/b50ck/step_000900.pt")
b = open("/tmp/b50ck/step_000900.pt", "rb").read()
open("/tmp/b50ck/step_000900.pt", "wb").write(b[: len(b) // 2])   # torn write
PY
}

d() { rm -rf "$RUNS/$1"; mkdir -p "$RUNS/$1"; cd "$RUNS/$1"; }

# ---------------- failing ----------------
r001() { d 001; JOBCFG="style=print,steps=30,fk=shape,fr=2,fs=6" $TR --nproc-per-node=4 --master-port=59010 $T > console.log 2>&1; }
r002() { d 002; JOBCFG="style=logging,steps=30,fk=data,fr=1,fs=9,noise=1" $TR --nproc-per-node=3 --master-port=59020 --log-dir=torchrun_logs --redirects=3 $T > console.log 2>&1; }
r003() { d 003; JOBCFG="style=print,steps=40,fk=oom,fr=3,fs=5,cg=b50mem" MASTER_ADDR=127.0.0.1 MASTER_PORT=59030 srun -n 4 --label --kill-on-bad-exit=1 $PY $T > console.log 2>&1; }
r004() { d 004; export JOBCFG="style=json,steps=40,fk=segv,fr=1,fs=8"
  $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59040 --rdzv-id=job4411 --node-rank=0 $T > node-a.log 2>&1 &
  sleep 1
  $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59040 --rdzv-id=job4411 --node-rank=1 $T > node-b.log 2>&1
  wait; unset JOBCFG; }
r005() { d 005; JOBCFG="launch=spawn,world=3,style=print,steps=30,fk=nan,fr=2,fs=11,nancheck=1" MASTER_PORT=59050 $PY $T > console.log 2>&1; }
r006() { d 006; JOBCFG="style=logging,steps=30,ckpt=/mnt/b50ro/ckpt,ckpt_every=10" $TR --nproc-per-node=2 --master-port=59060 --tee=3 $T > console.log 2>&1; }
r007() { d 007; cat > job.sbatch <<SB
#!/bin/bash
#SBATCH -J pretrain-small
#SBATCH -n 2
#SBATCH -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59070
export JOBCFG="style=fw,steps=30,ckpt=/mnt/b50small/run7,ckpt_every=10,blob=300000"
srun --kill-on-bad-exit=1 $PY $T
SB
  jid=$(sbatch --parsable job.sbatch); waitjob $jid; rm job.sbatch; }
r008() { d 008; JOBCFG="style=print,steps=30,resume=/tmp/b50ck/step_000500.pt" MASTER_ADDR=127.0.0.1 MASTER_PORT=59080 srun -n 2 -o out-%t.log $PY $T > console.log 2>&1; }
r009() { d 009; JOBCFG="style=logging,steps=30,fk=corrupt,resume=/tmp/b50ck/step_000900.pt" $TR --nproc-per-node=3 --master-port=59090 --log-dir=logs --tee=3 $T > console.log 2>&1; }
r010() { d 010; TORCH_DISTRIBUTED_DEBUG=DETAIL JOBCFG="style=print,steps=30,fk=mismatch,fr=3,fs=5,ddp=0,timeout=20" $TR --nproc-per-node=4 --master-port=59100 $T > console.log 2>&1; }
r011() { d 011; JOBCFG="style=logging,steps=40,fk=hang,fr=2,fs=7,timeout=25" $TR --nproc-per-node=4 --master-port=59110 $T > console.log 2>&1; }
r012() { d 012; cat > job.sbatch <<SB
#!/bin/bash
#SBATCH -J lm-finetune
#SBATCH -n 2
#SBATCH --time=1
#SBATCH -o train-%j.log
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59120
export JOBCFG="style=logging,steps=5000,sleep=0.2"
srun $PY $T
SB
  jid=$(sbatch --parsable job.sbatch); waitjob $jid; rm job.sbatch; }
r013() { d 013; cat > job.sbatch <<SB
#!/bin/bash
#SBATCH -J vit-sweep
#SBATCH -n 3
#SBATCH -o %x-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59130
export JOBCFG="style=json,steps=5000,sleep=0.2"
srun --label $PY $T
SB
  jid=$(sbatch --parsable job.sbatch); sleep 20; scancel $jid; waitjob $jid; rm job.sbatch; }
r014() { d 014; JOBCFG="style=json,steps=30,fk=thread,fr=1,fs=6" $TR --nproc-per-node=2 --master-port=59140 --tee=3 $T > console.log 2>&1; }
r015() { d 015; JOBCFG="style=print,steps=30,fk=uneven,fr=3,fs=12,timeout=30" $TR --nproc-per-node=4 --master-port=59150 $T > console.log 2>&1; }
r016() { d 016; JOBCFG="style=print,steps=30" $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59160 --rdzv-id=job4416 --rdzv-conf=join_timeout=20 $T > console.log 2>&1; }
r017() { d 017; $PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',59170));s.listen();time.sleep(60)" & lp=$!; sleep 1
  JOBCFG="style=print,steps=30" $TR --nproc-per-node=2 --master-addr=127.0.0.1 --master-port=59170 $T > console.log 2>&1; kill $lp; wait $lp 2>/dev/null; }
r018() { d 018; cat > launch.sh <<'SH'
#!/bin/bash
# per-task port derived from the task id (bug: integer division by 2)
export MASTER_ADDR=127.0.0.1
export MASTER_PORT=$((59180 + SLURM_PROCID / 2))
exec "$@"
SH
  chmod +x launch.sh
  JOBCFG="style=logging,steps=30,timeout=30" srun -n 3 --label ./launch.sh $PY $T > console.log 2>&1; rm launch.sh; }
r019() { d 019; MASTER_PORT=59190 JOBCFG="fk=dtype,fr=1,fs=12,epochs=2" $PY $GEN/lit.py > console.log 2>&1; }
r020() { d 020; JOBCFG="style=print,steps=30,workers=2,fk=dlkill,fr=0,fs=4" $TR --nproc-per-node=2 --master-port=59200 $T > console.log 2>&1; }
r021() { d 021; JOBCFG="style=print,steps=30,fk=emfile,fr=1,fs=5" MASTER_ADDR=127.0.0.1 MASTER_PORT=59210 srun -n 3 --label $PY $T > console.log 2>&1; }
r022() { d 022; JOBCFG="style=print,steps=30,fk=import" MASTER_ADDR=127.0.0.1 MASTER_PORT=59220 srun -n 2 $PY $T > console.log 2>&1; }
r023() { d 023; JOBCFG="style=fw,steps=80,fk=diverge,fs=15,lr=0.5" $TR --nproc-per-node=2 --master-port=59230 $T > console.log 2>&1; }
r024() { d 024; export JOBCFG="style=logging,steps=2000,sleep=0.1"
  $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59240 --rdzv-id=job4424 $T > node-a.log 2>&1 &
  sleep 1
  $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59240 --rdzv-id=job4424 $T > node-b.log 2>&1 & b=$!
  sleep 20; kill -TERM $b; wait; unset JOBCFG; }

# ---------------- healthy ----------------
r025() { d 025; JOBCFG="style=print,steps=25" $TR --standalone --nproc-per-node=2 $T > console.log 2>&1; }
r026() { d 026; JOBCFG="style=logging,steps=30,noise=1,retry=1" $TR --nproc-per-node=4 --master-port=59260 --log-dir=logs --tee=3 $T > console.log 2>&1; }
r027() { d 027; JOBCFG="style=json,steps=60,verbose=1" MASTER_ADDR=127.0.0.1 MASTER_PORT=59270 srun -n 4 --label $PY $T > console.log 2>&1; }
r028() { d 028; mkdir -p /tmp/b50ck/r28; cat > job.sbatch <<SB
#!/bin/bash
#SBATCH -J pretrain-small
#SBATCH -n 2
#SBATCH -o slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=59280
export JOBCFG="style=fw,steps=40,ckpt=/tmp/b50ck/r28,ckpt_every=10,noise=1"
srun $PY $T
SB
  jid=$(sbatch --parsable job.sbatch); waitjob $jid; rm job.sbatch; }
r029() { d 029; JOBCFG="launch=spawn,world=3,style=tqdm,steps=40" MASTER_PORT=59290 $PY $T > console.log 2>&1; }
r030() { d 030; MASTER_PORT=59300 JOBCFG="epochs=2" $PY $GEN/lit.py > console.log 2>&1; }
r031() { d 031; export JOBCFG="style=logging,steps=40,skipnan=1,noise=1"
  $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59310 --rdzv-id=job4431 $T > host1.log 2>&1 &
  sleep 1
  $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:59310 --rdzv-id=job4431 $T > host2.log 2>&1
  wait; unset JOBCFG; }
r032() { d 032; JOBCFG="style=print,steps=30,spike=1" MASTER_ADDR=127.0.0.1 MASTER_PORT=59320 srun -n 2 -o task-%t.out $PY $T > console.log 2>&1; [ -s console.log ] || rm console.log; }
r033() { d 033; mkdir -p /tmp/b50w33 && cd /tmp/b50w33 && rm -rf job33 && mkdir job33 && cd job33
  JOBCFG="style=json,steps=30" $TR --nproc-per-node=3 --master-port=59330 --log-dir=tl --redirects=3 $T > console.log 2>&1
  cd .. && tar czf "$RUNS/033/job_bundle.tgz" job33 && rm -rf /tmp/b50w33; }
r034() { d 034; JOBCFG="style=print,steps=30,noise=1" accelerate launch --cpu --num_processes 2 --num_machines 1 --main_process_port 59340 --mixed_precision no --dynamo_backend no $T > console.log 2>&1 <<< "" ; }
r035() { d 035; JOBCFG="style=fw,steps=200,sleep=0.005" $TR --nproc-per-node=8 --master-port=59350 $T > console.log 2>&1; }
r036() { d 036; mkdir -p out; JOBCFG="style=logging,steps=30,retry=1,noise=1" MASTER_ADDR=127.0.0.1 MASTER_PORT=59360 srun -n 2 --label $PY $T > out/stdout.txt 2> out/stderr.txt; }
r037() { d 037; JOBCFG="style=print,steps=25,fk=shape,fr=1,fs=5,once=1" $TR --nproc-per-node=2 --master-port=59370 --max-restarts=1 $T > console.log 2>&1; }

waitjob() { while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 2; done; }

setup
ALL=$(seq -f %03g 1 37)
for r in ${@:-$ALL}; do echo "== $r"; ( r$r ); done
