#!/usr/bin/env bash
# Regenerates the runs: bash make_runs.sh 001 002 ...   (no argument: all). Needs root (cgroups, tmpfs mounts),
# the private Slurm (slurm40/start.sh) and the CPU torch venv.
set -u
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
GEN=/work/blind/r40/set/gen
RUNS=/work/blind/r40/set/runs
WORK=/work/blind/r40/work
source /work/blind/slurm40/env.sh
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
T="timeout -k 5 170"

prep() { D=$RUNS/$1; rm -rf "$D"; mkdir -p "$D"; W=$WORK/$1; rm -rf "$W"; mkdir -p "$W"; cd "$W"; }
mkcg() { # memory cgroup v1 with a hard limit (real kernel OOM kill)
  local cg=/sys/fs/cgroup/memory/$1; [ -d $cg ] && { cat $cg/cgroup.procs | xargs -r kill -9; sleep 1; rmdir $cg; }
  mkdir $cg; echo $2 > $cg/memory.limit_in_bytes; echo $cg; }
kernlog() { dmesg | grep -A1 "memcg=/$1" | grep -v "^--" | tail -n 2 > "$2" || true; }
waitjob() { for _ in $(seq 1 200); do st=$(scontrol show job -o $1 | grep -o 'JobState=[A-Z_]*'); case $st in *PENDING|*RUNNING|*COMPLETING) sleep 2;; *) echo "$1 $st"; return;; esac; done; }

r001() { prep 001  # torchrun 4, --log-dir --tee 3, optional dependency import on one rank
  TRAIN_CFG='{"steps":12,"fused_opt_ranks":[2],"timeout":30}' $T $TR --nproc-per-node 4 --master-port 49101 \
    --log-dir $D/elastic_logs --tee 3 $GEN/train.py > $D/console.log 2>&1; }
r002() { prep 002  # torchrun 3, logging style, rank-dependent attribute path
  TRAIN_CFG='{"steps":12,"style":"logging","fused_act_ranks":[1],"timeout":30}' $T $TR --nproc-per-node 3 --master-port 49102 \
    $GEN/train.py > $D/console.log 2>&1; }
r003() { prep 003  # srun --label 4 tasks, json logs, one data shard missing
  mkdir -p $W/data; for r in 0 1 2; do $PY -c "import torch;torch.save(torch.randn(512,16),'$W/data/train-0000$r-of-00004.pt')"; done
  TRAIN_CFG='{"steps":12,"style":"json","data_dir":"'$W'/data","world":4,"init_method":"tcp://127.0.0.1:49103","timeout":30}' \
    $T srun -n 4 --label $PY $GEN/train.py > $D/console.log 2>&1; }
r004() { prep 004  # srun -o per task, MICRO_BATCH bad on one task
  TRAIN_CFG='{"steps":12,"init_method":"tcp://127.0.0.1:49104","timeout":30}' \
    $T srun -n 3 -o $D/task-%t.out bash -c 'if [ "$SLURM_PROCID" = 1 ]; then export MICRO_BATCH=32x; fi; exec '$PY' '$GEN'/train.py' > $D/console.log 2>&1; }
r005() { prep 005  # srun --label, one task with a wrong MASTER address
  TRAIN_CFG='{"steps":12,"timeout":30}' $T srun -n 4 --label bash -c 'A=127.0.0.1; [ "$SLURM_PROCID" = 2 ] && A=10.255.255.1;
     export TRAIN_CFG="{\"steps\":12,\"timeout\":30,\"init_method\":\"tcp://$A:49105\"}"; exec '$PY' '$GEN'/train.py' > $D/console.log 2>&1; }
r006() { prep 006  # 2-node c10d rendezvous, second agent never starts
  TRAIN_CFG='{"steps":12}' $T $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:49106 \
    --rdzv-id job6 --rdzv-conf join_timeout=25 $GEN/train.py > $D/console.log 2>&1; }
r007() { prep 007  # two agents started with different --nnodes
  mkdir -p $D/node0 $D/node1
  TRAIN_CFG='{"steps":12,"timeout":30}' $T $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:49107 \
    --rdzv-id job7 --rdzv-conf join_timeout=40 $GEN/train.py > $D/node0/console.log 2>&1 &
  sleep 2
  TRAIN_CFG='{"steps":12,"timeout":30}' $T $TR --nnodes 3 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:49107 \
    --rdzv-id job7 --rdzv-conf join_timeout=40 $GEN/train.py > $D/node1/console.log 2>&1; wait; }
r008() { prep 008  # static rendezvous port already bound by a leftover process
  $PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',49108));s.listen();time.sleep(60)" & H=$!; sleep 1
  TRAIN_CFG='{"steps":12}' $T $TR --nnodes 1 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 49108 \
    $GEN/train.py > $D/console.log 2>&1; kill $H; }
r009() { prep 009  # mp.spawn, init_method port already bound
  $PY -c "import socket,time;s=socket.socket();s.bind(('127.0.0.1',49109));s.listen();time.sleep(90)" & H=$!; sleep 1
  TRAIN_CFG='{"steps":12,"init_method":"tcp://127.0.0.1:49109","timeout":30}' $T $PY $GEN/train.py --spawn 3 > $D/console.log 2>&1; kill $H; }
r010() { prep 010  # torchrun 4 --log-dir only (+console), rank stuck in artifact upload before final barrier
  TRAIN_CFG='{"steps":10,"upload_hang_rank":3,"timeout":30}' $T $TR --nproc-per-node 4 --master-port 49110 \
    --log-dir $D/tl $GEN/train.py > $D/console.log 2>&1; }
r011() { prep 011  # sbatch + srun --label, monitored_barrier at the end, rank stuck before it
  cat > $W/job.sh <<J
#!/bin/bash
#SBATCH -J pretrain-s -n 4 -o $D/slurm-%j.out
export TRAIN_CFG='{"steps":10,"style":"logging","upload_hang_rank":1,"final_monitored_barrier":true,"init_method":"tcp://127.0.0.1:49111","timeout":30}'
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun --label $PY $GEN/train.py
J
  j=$(sbatch --parsable $W/job.sh); waitjob $j; scancel $j 2>/dev/null; }
r012() { prep 012  # rank 0 saves the final checkpoint to a read-only mount
  mkdir -p $W/ckpt; mount -t tmpfs -o ro,size=1m tmpfs $W/ckpt
  TRAIN_CFG='{"steps":10,"ckpt_dir":"'$W'/ckpt","timeout":30}' $T $TR --nproc-per-node 2 --master-port 49112 \
    $GEN/train.py > $D/console.log 2>&1; umount $W/ckpt; }
r013() { prep 013  # sbatch, rank 0 saves the final checkpoint to a full filesystem
  mkdir -p $W/ckpt; mount -t tmpfs -o size=256k tmpfs $W/ckpt
  cat > $W/job.sh <<J
#!/bin/bash
#SBATCH -J ft-small -n 3 -o $D/slurm-%j.out
export TRAIN_CFG='{"steps":10,"style":"trainer","ckpt_dir":"$W/ckpt","ckpt_pad":2000000,"init_method":"tcp://127.0.0.1:49113","timeout":30}'
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun $PY $GEN/train.py
J
  j=$(sbatch --parsable $W/job.sh); waitjob $j; umount $W/ckpt; }
r014() { prep 014  # json logs, upload of the final checkpoint fails
  TRAIN_CFG='{"steps":10,"style":"json","ckpt_dir":"'$W'","upload_url":"http://127.0.0.1:49914/bucket/ckpt","timeout":30}' \
    $T $TR --nproc-per-node 3 --master-port 49114 $GEN/train.py > $D/console.log 2>&1; }
r015() { prep 015  # a rank fails writing its metrics after the last step
  TRAIN_CFG='{"steps":10,"metrics_rank":3,"out_dir":"'$W'","timeout":30}' $T $TR --nproc-per-node 4 --master-port 49115 \
    --log-dir $D/logs --tee 3 $GEN/train.py > $D/console.log 2>&1; }
r016() { prep 016  # json logs, one rank skips a backward/optimizer step (empty batch guard)
  TRAIN_CFG='{"steps":12,"style":"json","skip_rank":2,"skip_step":7,"timeout":30}' $T $TR --nproc-per-node 4 \
    --master-port 49116 $GEN/train.py > $D/console.log 2>&1; }
r017() { prep 017  # srun --label, one rank runs an extra eval batch, no debug
  TRAIN_CFG='{"steps":12,"style":"logging","eval_every":5,"eval_override":{"1":5},"init_method":"tcp://127.0.0.1:49117","timeout":30}' \
    $T srun -n 3 --label $PY $GEN/train.py > $D/console.log 2>&1; }
r018() { prep 018  # metric all-reduce with a different shape on one rank
  TRAIN_CFG='{"steps":12,"eval_every":6,"metric_rank":2,"timeout":30}' $T $TR --nproc-per-node 3 --master-port 49118 \
    $GEN/train.py > $D/console.log 2>&1; }
r019() { prep 019  # 2 agents x 2, c10d, one rank with a different grad accumulation
  mkdir -p $D/n0 $D/n1
  for n in 0 1; do
  TRAIN_CFG='{"steps":12,"accum":1,"accum_override":{"3":2},"timeout":30}' $T $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d \
    --rdzv-endpoint 127.0.0.1:49119 --rdzv-id job19 $GEN/train.py > $D/n$n/console.log 2>&1 & sleep 1; done; wait; }
r020() { prep 020  # --max-restarts 2: attempt 0 rank 0 OOM-killed mid-save, later attempts cannot resume
  CG=$(mkcg b40_r20 400M); mkdir -p $W/ck
  TRAIN_CFG='{"steps":10,"oom_rank":0,"oom_step":5,"oom_attempts":1,"torn_save":true,"cgroup":"'$CG'","ckpt_dir":"'$W'/ck","resume_last":true,"timeout":30}' \
    $T $TR --nproc-per-node 3 --max-restarts 2 --master-port 49120 $GEN/train.py > $D/console.log 2>&1
  kernlog b40_r20 $D/kern.log; }
r021() { prep 021  # --max-restarts 1, attempt 0 loses a rank to SIGKILL, attempt 1 completes
  TRAIN_CFG='{"steps":10,"self_kill_rank":2,"self_kill_step":5,"self_kill_attempts":1,"timeout":30}' $T $TR --nproc-per-node 3 \
    --max-restarts 1 --master-port 49121 $GEN/train.py > $D/console.log 2>&1; }
r022() { prep 022  # sbatch --time=1, too many steps
  cat > $W/job.sh <<J
#!/bin/bash
#SBATCH -J long-pt -n 2 -t 1 -o $D/slurm-%j.out
export TRAIN_CFG='{"steps":400,"step_time":1.0,"style":"logging","init_method":"tcp://127.0.0.1:49122","timeout":60}'
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun --label $PY $GEN/train.py
J
  j=$(sbatch --parsable $W/job.sh); waitjob $j; }
r023() { prep 023  # sbatch, cancelled by scancel mid-run
  cat > $W/job.sh <<J
#!/bin/bash
#SBATCH -J sweep-7 -n 2 -o $D/slurm-%j.out
export TRAIN_CFG='{"steps":400,"step_time":0.5,"init_method":"tcp://127.0.0.1:49123","timeout":60}'
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun $PY $GEN/train.py
J
  j=$(sbatch --parsable $W/job.sh); sleep 35; scancel $j; waitjob $j; }
r024() { prep 024  # exception in a prefetch thread on one rank, main thread blocks
  TRAIN_CFG='{"steps":14,"style":"logging","bad_record_rank":2,"bad_record_at":5,"timeout":30}' $T $TR --nproc-per-node 4 \
    --master-port 49124 $GEN/train.py > $D/console.log 2>&1; }
r025() { prep 025  # mp.spawn 4, one rank's batch has inf
  TRAIN_CFG='{"steps":12,"nan_rank":3,"nan_step":6,"init_method":"tcp://127.0.0.1:49125","timeout":30}' $T $PY $GEN/train.py --spawn 4 \
    > $D/console.log 2>&1; }
r026() { prep 026  # resume from a checkpoint of another model size
  $PY -c "
import sys; sys.path.insert(0,'$GEN'); import torch, train
m=train.Net(64, torch.relu); torch.save({'model':m.state_dict(),'step':300}, '$W/step300.pt')"
  TRAIN_CFG='{"steps":12,"style":"trainer","resume":"'$W'/step300.pt","timeout":30}' $T $TR --nproc-per-node 3 --master-port 49126 \
    $GEN/train.py > $D/console.log 2>&1; }
r027() { prep 027  # sbatch, srun -o per task, host memory limit on one rank (cgroup)
  CG=$(mkcg b40_r27 350M)
  cat > $W/job.sh <<J
#!/bin/bash
#SBATCH -J embed-pt -n 4 -o $D/batch-%j.out
export TRAIN_CFG='{"steps":14,"oom_rank":2,"oom_step":4,"cgroup":"$CG","init_method":"tcp://127.0.0.1:49127","timeout":30}'
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun -o $D/task-%t.log $PY $GEN/train.py
J
  j=$(sbatch --parsable $W/job.sh); waitjob $j; kernlog b40_r27 $D/kern.log; }
r028() { prep 028  # mp.spawn 3, one rank's shard is shorter: it leaves the loop early
  TRAIN_CFG='{"steps":14,"style":"logging","short_shard_rank":1,"short_steps":6,"init_method":"tcp://127.0.0.1:49128","timeout":30}' $T $PY $GEN/train.py \
    --spawn 3 > $D/console.log 2>&1; }
r029() { prep 029  # retried download at start-up, slow eval (finishes)
  TRAIN_CFG='{"steps":10,"style":"logging","fetch_url":"http://127.0.0.1:49929/vocab.json","eval_every":5,"eval_sleep":2,"timeout":30}' \
    $T $TR --nproc-per-node 2 --master-port 49129 $GEN/train.py > $D/console.log 2>&1; }
r030() { prep 030  # srun --label, exception in an atexit handler on one rank, warnings at exit
  TRAIN_CFG='{"steps":10,"atexit_rank":1,"warn_at_exit":true,"init_method":"tcp://127.0.0.1:49130","timeout":30}' \
    $T srun -n 3 --label $PY $GEN/train.py > $D/console.log 2>&1; }
r031() { prep 031  # 2 agents c10d, json logs, non-fatal upload warnings
  mkdir -p $D/host-a $D/host-b
  for n in a b; do
  TRAIN_CFG='{"steps":10,"style":"json","ckpt_dir":"'$W'","upload_url":"http://127.0.0.1:49931/b/ck","upload_fatal":false,"timeout":30}' \
    $T $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:49131 --rdzv-id job31 $GEN/train.py \
    > $D/host-$n/console.log 2>&1 & sleep 1; done; wait; }
r032() { prep 032  # sbatch, progress bar, slow eval, no destroy_process_group
  cat > $W/job.sh <<J
#!/bin/bash
#SBATCH -J cls-ft -n 2 -o $D/slurm-%j.out
export TRAIN_CFG='{"steps":12,"style":"bar","eval_every":6,"eval_sleep":3,"skip_destroy":true,"init_method":"tcp://127.0.0.1:49132","timeout":60}'
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun $PY $GEN/train.py
J
  j=$(sbatch --parsable $W/job.sh); waitjob $j; }
r033() { prep 033  # --max-restarts 2, two attempts lose rank 1 to SIGKILL, third completes; --log-dir
  TRAIN_CFG='{"steps":10,"self_kill_rank":1,"self_kill_step":4,"self_kill_attempts":2,"timeout":30}' $T $TR --nproc-per-node 4 \
    --max-restarts 2 --master-port 49133 --log-dir $D/logs --redirects 3 $GEN/train.py > $D/console.log 2>&1; }

r034() { prep 034  # 2 agents x 3 (c10d), --log-dir --tee, one rank's data shard missing
  mkdir -p $W/data $D/nodeA $D/nodeB; for r in 0 1 2 3 5; do $PY -c "import torch;torch.save(torch.randn(512,16),'$W/data/train-0000$r-of-00006.pt')"; done
  for n in A B; do
  TRAIN_CFG='{"steps":12,"style":"logging","data_dir":"'$W'/data","world":6,"timeout":30}' $T $TR --nnodes 2 --nproc-per-node 3 \
    --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:49134 --rdzv-id job34 --log-dir $D/node$n/tlogs --tee 3 $GEN/train.py \
    > $D/node$n/console.log 2>&1 & sleep 1; done; wait; }

r035() { prep 035  # sbatch + srun --label -n 4, one rank evaluates in float64
  cat > $W/job.sh <<J
#!/bin/bash
#SBATCH -J lm-eval-ft -n 4 -o $D/slurm-%j.out
export TRAIN_CFG='{"steps":12,"style":"trainer","eval_every":6,"eval_fp64_rank":3,"init_method":"tcp://127.0.0.1:49135","timeout":30}'
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun --label $PY $GEN/train.py
J
  j=$(sbatch --parsable $W/job.sh); waitjob $j; }

if [ $# -eq 0 ]; then set -- $(seq -f %03g 1 35); fi
for r in "$@"; do echo "== $r $(date +%T)"; r$r; done
