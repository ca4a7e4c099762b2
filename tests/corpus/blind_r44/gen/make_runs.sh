#!/usr/bin/env bash
# Regenerates runs/NNN. Usage: bash make_runs.sh 001 002 ...   (no args: all)
# Needs: /work/blind/venv (torch 2.14.1 CPU, transformers 5.25.0, accelerate 1.16.0, lightning 2.6.6),
# the private Slurm (bash /work/blind/slurm44/start.sh), root (tmpfs mounts, cgroup v1 memory).
set -u
G=$(cd "$(dirname "$0")" && pwd)
RUNS=$(cd "$G/.." && pwd)/runs
export PATH=/work/blind/venv/bin:$PATH
PY=/work/blind/venv/bin/python
W=/tmp/b44w            # scratch (checkpoints, data); never an input
CGROOT=/sys/fs/cgroup/memory
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 TOKENIZERS_PARALLELISM=false HF_HUB_OFFLINE=1

prep() { R=$RUNS/$1; rm -rf "$R"; mkdir -p "$R"; S=$W/$1; rm -rf "$S"; mkdir -p "$S"; cd "$S"; }
mkcg() { local cg=$CGROOT/b44_$1; rmdir "$cg" 2>/dev/null; mkdir -p "$cg"; echo "$2" > "$cg/memory.limit_in_bytes";
         echo 0 > "$cg/memory.swappiness" 2>/dev/null; echo "$cg"; }
dmesg_since() { dmesg | awk -v t="$1" '{ s=$0; sub(/^\[ */,"",s); split(s,a,"]"); if (a[1]+0 >= t) print }'; }
uptime_s() { awk '{print $1}' /proc/uptime; }

r001() { prep 001  # HF Trainer, torchrun 2, a bad record reaches rank 1's collate_fn
  SCN=collate_bad OUT_DIR=$S/out torchrun --nproc_per_node 2 --master_port 53101 "$G/train_hf.py" > "$R/console.log" 2>&1; }

r002() { prep 002  # HF Trainer, torchrun 2, healthy, --log-dir + --tee
  SCN=ok OUT_DIR=$S/out STEPS=40 SAVE_STEPS=20 torchrun --nproc_per_node 2 --master_port 53102 --log-dir "$R/tlogs" --tee 3 \
    "$G/train_hf.py" > "$R/console.log" 2>&1; }

r003() { prep 003  # Lightning Trainer ddp devices=2 (spawns its own ranks); a bad sample on rank 0
  SCN=shape MASTER_PORT=53103 CKPT_DIR=$S/ckpt $PY "$G/train_pl.py" > "$R/console.log" 2>&1; }

r004() { prep 004  # HF Trainer under accelerate launch (2 procs); SGD with too-high LR
  SCN=nan OUT_DIR=$S/out STEPS=40 accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no \
    --dynamo_backend no --main_process_port 53104 "$G/train_hf.py" > "$R/console.log" 2>&1; }

r005() { prep 005  # Fabric under torchrun 3; rank 2's shard is shorter and it leaves the loop
  SCN=short_shard STRATEGY=ddp DEVICES=3 LOGSTYLE=json torchrun --nproc_per_node 3 --master_port 53105 \
    "$G/train_fabric.py" > "$R/console.log" 2>&1; }

r006() { prep 006  # Lightning ddp devices=2 healthy; EarlyStopping ends the run
  SCN=earlystop EPOCHS=30 LR=0.05 MASTER_PORT=53106 CKPT_DIR=$S/ckpt $PY "$G/train_pl.py" > "$R/console.log" 2>&1; }

r007() { prep 007  # Lightning ddp devices=2, 2 loader workers per rank; a worker of rank 0 dies by SIGKILL
  SCN=worker_kill WORKERS=2 MASTER_PORT=53107 CKPT_DIR=$S/ckpt $PY "$G/train_pl.py" > "$R/console.log" 2>&1; }

r008() { prep 008  # HF Trainer torchrun 3; rank 1 deadlocks in a callback, the others wait in the gradient allreduce.
  # With use_cpu the Trainer does not pass ddp_timeout to gloo (default 30 min): the job just stops; after ~2 min
  # the engineer stops torchrun with SIGTERM.
  SCN=hang OUT_DIR=$S/out DDP_TIMEOUT=30 torchrun --nproc_per_node 3 --master_port 53108 "$G/train_hf.py" > "$R/console.log" 2>&1 &
  t=$!; sleep 140; kill -TERM $t; wait $t; }

r009() { prep 009  # Lightning under sbatch + srun --label, 2 tasks, healthy
  source /work/blind/slurm44/env.sh
  cat > "$S/job.sh" <<EOF
#!/bin/bash
#SBATCH -J reg-train
#SBATCH --ntasks-per-node=2
#SBATCH -o $R/slurm-%j.out
#SBATCH -t 5
export MASTER_PORT=53109 SCN=ok CKPT_DIR=$S/ckpt DEVICES=2 NO_BAR=1 EPOCHS=2
srun --label $PY $G/train_pl.py
EOF
  jid=$(sbatch --parsable --chdir "$S" "$S/job.sh"); wait_job "$jid"; }

wait_job() { for _ in $(seq 1 200); do st=$(scontrol show job "$1" -o | grep -o 'JobState=[A-Z_]*'); case $st in
  *PENDING*|*RUNNING*|*CONFIGURING*|*COMPLETING*) sleep 2;; *) echo "job $1 $st"; return;; esac; done; }

r010() { prep 010  # Fabric ddp_spawn (torch.multiprocessing spawn), 2 ranks; rank 1 raises in the loop
  SCN=spawn_exc STRATEGY=ddp_spawn DEVICES=2 LOGSTYLE=log MASTER_PORT=53110 $PY "$G/train_fabric.py" > "$R/console.log" 2>&1; }

r011() { prep 011  # HF Trainer torchrun 2; rank 1 moves into a 300 MiB memory cgroup and grows: kernel OOM kill
  cg=$(mkcg 011 $((300*1024*1024))); t0=$(uptime_s)
  SCN=oom_cg CG_DIR=$cg OUT_DIR=$S/out torchrun --nproc_per_node 2 --master_port 53111 "$G/train_hf.py" > "$R/console.log" 2>&1
  sleep 1; dmesg_since "$t0" > "$R/dmesg.txt"; rmdir "$cg" 2>/dev/null; }

r012() { prep 012  # Lightning ddp devices=2, healthy, resumed from a checkpoint of an earlier run
  SCN=ok EPOCHS=2 MASTER_PORT=53112 CKPT_DIR=$S/pre NO_BAR=1 $PY "$G/train_pl.py" > /dev/null 2>&1
  SCN=ok EPOCHS=4 MASTER_PORT=53112 CKPT_DIR=$S/ckpt CKPT_PATH=$S/pre/last.ckpt $PY "$G/train_pl.py" > "$R/console.log" 2>&1; }

r013() { prep 013  # Fabric under torchrun 3, TORCH_DISTRIBUTED_DEBUG=DETAIL; rank 1 all_reduces a longer stats tensor
  SCN=mismatch STRATEGY=ddp DEVICES=3 LOGSTYLE=json TORCH_DISTRIBUTED_DEBUG=DETAIL torchrun --nproc_per_node 3 \
    --master_port 53113 "$G/train_fabric.py" > "$R/console.log" 2>&1; }

r014() { prep 014  # Lightning under srun -o per task (no sbatch), 2 loader workers; rank 1 misses a data file
  source /work/blind/slurm44/env.sh; mkdir -p "$R/out"
  SCN=ds_missing WORKERS=2 DEVICES=2 MASTER_PORT=53114 CKPT_DIR=$S/ckpt DATA_DIR=$S/data NO_BAR=1 \
    srun -N 1 --ntasks-per-node=2 -J reg-train -o "$R/out/task-%t.log" -t 5 $PY "$G/train_pl.py" > "$R/out/srun.log" 2>&1; }

r015() { prep 015  # HF Trainer seq-classification from a local base checkpoint under accelerate launch, healthy
  SCN=seqcls BASE_DIR=$S/base OUT_DIR=$S/out STEPS=30 $PY -c "
import os; os.environ['SCN']='x'
from transformers import GPT2Config, GPT2LMHeadModel
GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=64, n_head=2, vocab_size=512, n_positions=64)).save_pretrained('$S/base')" >/dev/null 2>&1
  SCN=seqcls BASE_DIR=$S/base OUT_DIR=$S/out STEPS=30 accelerate launch --multi_gpu --num_processes 2 --main_process_port 53115 \
    "$G/train_hf.py" > "$R/console.log" 2>&1; }

r016() { prep 016  # HF Trainer torchrun 2; output_dir on a 1 MiB tmpfs, the first checkpoint does not fit
  mkdir -p /mnt/b44_016 && mount -t tmpfs -o size=1m tmpfs /mnt/b44_016
  SCN=ok OUT_DIR=/mnt/b44_016/run1 STEPS=40 SAVE_STEPS=10 torchrun --nproc_per_node 2 --master_port 53116 \
    "$G/train_hf.py" > "$R/console.log" 2>&1
  umount /mnt/b44_016; rmdir /mnt/b44_016; }

r017() { prep 017  # Lightning ddp devices=2, detect_anomaly=True; rank 1's data overflow
  SCN=anomaly MASTER_PORT=53117 CKPT_DIR=$S/ckpt $PY "$G/train_pl.py" > "$R/console.log" 2>&1; }

r018() { prep 018  # torchrun c10d rendezvous for 2 nodes, only one node's agent is started
  SCN=ok STRATEGY=ddp DEVICES=1 NUM_NODES=2 torchrun --nnodes 2 --nproc_per_node 1 --rdzv-backend c10d \
    --rdzv-endpoint 127.0.0.1:53118 --rdzv-id job-4471 --rdzv-conf join_timeout=40 "$G/train_fabric.py" > "$R/console.log" 2>&1; }

r019() { prep 019  # Fabric standalone ddp devices=2, logging + tqdm, saves a checkpoint, healthy
  SCN=ok_ckpt STRATEGY=ddp DEVICES=2 LOGSTYLE=log TQDM=1 STEPS=60 CKPT=$S/fab.ckpt MASTER_PORT=53119 \
    $PY "$G/train_fabric.py" > "$R/console.log" 2>&1; }

r020() { prep 020  # HF Trainer torchrun 2; output_dir is on a read-only mount
  mkdir -p /mnt/b44_020 && mount -t tmpfs -o size=64m tmpfs /mnt/b44_020 && mkdir -p /mnt/b44_020/exp7 && mount -o remount,ro /mnt/b44_020
  SCN=ok OUT_DIR=/mnt/b44_020/exp7 STEPS=40 SAVE_STEPS=15 torchrun --nproc_per_node 2 --master_port 53120 \
    "$G/train_hf.py" > "$R/console.log" 2>&1
  umount /mnt/b44_020; rmdir /mnt/b44_020; }

r021() { prep 021  # Lightning ddp devices=2; a reporting callback on rank 1 reads a metric that is never logged
  SCN=cb_exc MASTER_PORT=53121 CKPT_DIR=$S/ckpt $PY "$G/train_pl.py" > "$R/console.log" 2>&1; }

r022() { prep 022  # Lightning under sbatch --time=1 + srun, training is too slow: time limit
  source /work/blind/slurm44/env.sh
  cat > "$S/job.sh" <<EOF
#!/bin/bash
#SBATCH -J reg-long
#SBATCH --ntasks-per-node=2
#SBATCH -o $R/slurm-%j.out
#SBATCH -t 1
export MASTER_PORT=53122 SCN=slow CKPT_DIR=$S/ckpt DEVICES=2 NO_BAR=1 EPOCHS=200
srun $PY $G/train_pl.py
EOF
  jid=$(sbatch --parsable --chdir "$S" "$S/job.sh"); wait_job "$jid"; }

r023() { prep 023  # Lightning under torchrun 2 with --log-dir (no tee): a double-precision sample on rank 0
  SCN=dtype DEVICES=2 CKPT_DIR=$S/ckpt NO_BAR=1 torchrun --nproc_per_node 2 --master_port 53123 --log-dir "$R/tlogs" \
    --redirects 3 "$G/train_pl.py" > "$R/console.log" 2>&1; }

r024() { prep 024  # HF Trainer torchrun 2; resume_from_checkpoint of a run with a different width
  SCN=ok OUT_DIR=$S/pre STEPS=10 SAVE_STEPS=10 torchrun --nproc_per_node 2 --master_port 53124 "$G/train_hf.py" > /dev/null 2>&1
  SCN=resume_bad OUT_DIR=$S/out RESUME=$S/pre/checkpoint-10 STEPS=30 torchrun --nproc_per_node 2 --master_port 53124 \
    "$G/train_hf.py" > "$R/console.log" 2>&1; }

r025() { prep 025  # Fabric, two torchrun agents (nodes) with c10d rendezvous: 2 + 1 procs; rank 1 deadlocks
  export SCN=deadlock STRATEGY=ddp LOGSTYLE=log PG_TIMEOUT=30
  DEVICES=2 NUM_NODES=2 torchrun --nnodes 2 --nproc_per_node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:53125 \
    --rdzv-id job-4502 "$G/train_fabric.py" > "$R/node-a.log" 2>&1 &
  a=$!; sleep 2
  DEVICES=2 NUM_NODES=2 torchrun --nnodes 2 --nproc_per_node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:53125 \
    --rdzv-id job-4502 "$G/train_fabric.py" > "$R/node-b.log" 2>&1
  wait $a; unset SCN STRATEGY LOGSTYLE PG_TIMEOUT; }

r026() { prep 026  # Lightning ddp devices=2 resumes from a checkpoint that was cut short by a copy
  SCN=ok EPOCHS=1 MASTER_PORT=53126 CKPT_DIR=$S/pre NO_BAR=1 $PY "$G/train_pl.py" > /dev/null 2>&1
  head -c 3000 "$S/pre/last.ckpt" > "$S/restore.ckpt"
  SCN=ok EPOCHS=3 MASTER_PORT=53126 CKPT_DIR=$S/ckpt CKPT_PATH=$S/restore.ckpt $PY "$G/train_pl.py" > "$R/console.log" 2>&1; }

r027() { prep 027  # Lightning under torchrun 2 with a TensorBoardLogger; tensorboard is not installed
  SCN=tblogger DEVICES=2 CKPT_DIR=$S/ckpt torchrun --nproc_per_node 2 --master_port 53127 "$G/train_pl.py" > "$R/console.log" 2>&1; }

r028() { prep 028  # torchrun 2 (static rendezvous): the master port is held by a leftover process
  $PY -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',53128)); s.listen(); time.sleep(90)" & h=$!; sleep 1
  SCN=ok STRATEGY=ddp DEVICES=2 torchrun --nproc_per_node 2 --master_addr 127.0.0.1 --master_port 53128 "$G/train_fabric.py" \
    > "$R/console.log" 2>&1
  kill $h; }

r029() { prep 029  # Fabric under sbatch + srun --label, 2 tasks, JSON lines, healthy (ends when its 60 batches are used)
  source /work/blind/slurm44/env.sh
  cat > "$S/job.sh" <<EOF
#!/bin/bash
#SBATCH -J fab-train
#SBATCH --ntasks-per-node=2
#SBATCH -o $R/slurm-%j.out
#SBATCH -t 10
export MASTER_PORT=53129 SCN=slow STRATEGY=ddp DEVICES=2 LOGSTYLE=json STEPS=2000
srun --label $PY $G/train_fabric.py
EOF
  jid=$(sbatch --parsable --chdir "$S" "$S/job.sh"); wait_job "$jid"; }

r030() { prep 030  # HF Trainer torchrun 2, healthy, resumed from its own checkpoint, --log-dir without tee
  SCN=ok OUT_DIR=$S/out STEPS=20 SAVE_STEPS=10 torchrun --nproc_per_node 2 --master_port 53130 "$G/train_hf.py" > /dev/null 2>&1
  SCN=ok OUT_DIR=$S/out STEPS=40 SAVE_STEPS=10 RESUME=$S/out/checkpoint-20 NO_TQDM=1 torchrun --nproc_per_node 2 \
    --master_port 53130 --log-dir "$R/tlogs" --redirects 3 "$G/train_hf.py" > "$R/console.log" 2>&1; }

r031() { prep 031  # Fabric standalone ddp 2 ranks; rank 1 grows; a user-space OOM watcher (earlyoom-like) SIGKILLs it
  SCN=rss_grow STRATEGY=ddp DEVICES=2 LOGSTYLE=json STEPS=400 MASTER_PORT=53131 PG_TIMEOUT=30 \
    $PY "$G/train_fabric.py" > "$R/console.log" 2>&1 & m=$!
  $PY "$G/rss_watch.py" 1536 $m > "$R/memwatch.log" 2>&1 & wpid=$!
  wait $m; sleep 1; kill $wpid 2>/dev/null; }

r032() { prep 032  # HF Trainer torchrun 2; a throughput callback on rank 1 indexes an empty window
  SCN=cb_exc OUT_DIR=$S/out NO_TQDM=1 torchrun --nproc_per_node 2 --master_port 53732 "$G/train_hf.py" > "$R/console.log" 2>&1; }

r033() { prep 033  # Fabric under sbatch + srun --label, 3 tasks; the job is cancelled with scancel after ~45 s
  source /work/blind/slurm44/env.sh
  cat > "$S/job.sh" <<EOF
#!/bin/bash
#SBATCH -J fab-train
#SBATCH --ntasks-per-node=3
#SBATCH -o $R/slurm-%j.out
#SBATCH -t 10
export MASTER_PORT=53133 SCN=slow STRATEGY=ddp DEVICES=3 LOGSTYLE=log STEPS=100000 NB=100000
srun --label $PY $G/train_fabric.py
EOF
  jid=$(sbatch --parsable --chdir "$S" "$S/job.sh"); sleep 45; scancel "$jid"; wait_job "$jid"; }

r034() { prep 034  # Lightning ddp devices=2; EarlyStopping(check_finite=True) on train_loss with a far too high LR
  SCN=nan_es LR=40 EPOCHS=20 MASTER_PORT=53134 CKPT_DIR=$S/ckpt $PY "$G/train_pl.py" > "$R/console.log" 2>&1; }

r035() { prep 035  # Lightning under torchrun 2 --tee; rank 1 in a 250 MiB memory cgroup, grows per step: OOM kill
  cg=$(mkcg 035 $((250*1024*1024)))
  SCN=oom_cg_pl CG_DIR=$cg DEVICES=2 CKPT_DIR=$S/ckpt NO_BAR=1 torchrun --nproc_per_node 2 --master_port 53135 \
    "$G/train_pl.py" > "$R/console.log" 2>&1
  rmdir "$cg" 2>/dev/null; }

r036() { prep 036  # HF Trainer torchrun 2 loading "gpt2" from the Hub, which is unreachable here
  HF_HUB_OFFLINE=0 HF_HUB_ETAG_TIMEOUT=10 HF_HUB_DOWNLOAD_TIMEOUT=10 SCN=hub OUT_DIR=$S/out torchrun --nproc_per_node 2 \
    --master_port 53136 "$G/train_hf.py" > "$R/console.log" 2>&1; }

r037() { prep 037  # Lightning ddp devices=2 spawned by Lightning; MASTER_PORT is held by another process
  $PY -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',53137)); s.listen(); time.sleep(120)" & h=$!; sleep 1
  SCN=ok MASTER_PORT=53137 CKPT_DIR=$S/ckpt PG_TIMEOUT=30 $PY "$G/train_pl.py" > "$R/console.log" 2>&1
  kill $h; }

r038() { prep 038  # plain Accelerate loop under accelerate launch 2; rank 1's CSV shard has a bad value
  SCN=bad_row DATA_DIR=$S/data accelerate launch --multi_gpu --num_processes 2 --num_machines 1 --mixed_precision no \
    --dynamo_backend no --main_process_port 53138 "$G/train_acc.py" > "$R/console.log" 2>&1; }

r039() { prep 039  # HF Trainer torchrun 3, process group created up front with a 30 s gloo timeout; rank 1 deadlocks
  SCN=hang PG_INIT_TIMEOUT=30 OUT_DIR=$S/out NO_TQDM=1 torchrun --nproc_per_node 3 --master_port 53139 --log-dir "$R/tlogs" \
    --tee 3 "$G/train_hf.py" > "$R/console.log" 2>&1; }

r040() { prep 040  # Lightning under sbatch -n 2 + srun --label (Lightning's SLURM environment rejects --ntasks)
  source /work/blind/slurm44/env.sh
  cat > "$S/job.sh" <<EOF
#!/bin/bash
#SBATCH -J reg-train
#SBATCH -n 2
#SBATCH -o $R/slurm-%j.out
#SBATCH -t 5
export MASTER_PORT=53140 SCN=ok CKPT_DIR=$S/ckpt DEVICES=2 NO_BAR=1 EPOCHS=2
srun --label $PY $G/train_pl.py
EOF
  jid=$(sbatch --parsable --chdir "$S" "$S/job.sh"); wait_job "$jid"; }

r041() { prep 041  # as 013 but without TORCH_DISTRIBUTED_DEBUG (013's DETAIL mode crashed torch 2.14 with SIGSEGV)
  SCN=mismatch STRATEGY=ddp DEVICES=3 LOGSTYLE=json torchrun --nproc_per_node 3 --master_port 53202 \
    "$G/train_fabric.py" > "$R/console.log" 2>&1; }
r042() { prep 042  # what r032 first produced: torchrun's master port 53132 was taken as an ephemeral client port
  # (TIME_WAIT from r030's connections to 53130); not reproducible on purpose, kept because it happened
  SCN=cb_exc OUT_DIR=$S/out NO_TQDM=1 torchrun --nproc_per_node 2 --master_port 53132 "$G/train_hf.py" > "$R/console.log" 2>&1; }
r043() { prep 043  # Fabric under torchrun 3 --tee; rank 0's background prefetch thread dies on a missing batch file
  SCN=prefetch STRATEGY=ddp DEVICES=3 LOGSTYLE=log DATA_DIR=$S/data PG_TIMEOUT=30 torchrun --nproc_per_node 3 \
    --master_port 53143 --log-dir "$R/tlogs" --tee 3 "$G/train_fabric.py" > "$R/console.log" 2>&1; }

r044() { prep 044  # Fabric standalone ddp 3 ranks, fabric.save every 20 steps (rank 0 writes) onto a 16 KiB tmpfs
  mkdir -p /mnt/b44_044 && mount -t tmpfs -o size=16k tmpfs /mnt/b44_044
  SCN=ckpt_every STRATEGY=ddp DEVICES=3 LOGSTYLE=json CKPT_DIR=/mnt/b44_044 MASTER_PORT=53144 PG_TIMEOUT=30 \
    $PY "$G/train_fabric.py" > "$R/console.log" 2>&1
  umount /mnt/b44_044; rmdir /mnt/b44_044; }

ALL=$(declare -F | awk '{print $3}' | grep -E '^r[0-9]{3}$' | sed 's/^r//')
for n in ${@:-$ALL}; do echo "== $n $(date +%T)"; ( r$n ); echo "== $n done $(date +%T)"; done
