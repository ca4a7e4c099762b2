#!/usr/bin/env bash
# Regenerate the blind r42 runs: bash make_runs.sh [NNN ...]  (no argument: all runs)
# Needs /work/blind/venv (CPU torch, gloo) and, for the Slurm runs, the private Slurm
# (bash /work/blind/slurm42/start.sh). Ports 51000-51999 only.
set -u
GEN=$(cd "$(dirname "$0")" && pwd)
SET=$(dirname "$GEN")
RUNS=$SET/runs
SCR=/work/blind/r42/work/scratch
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
TRAIN=$GEN/train.py
SPAWN=$GEN/spawn_main.py
source /work/blind/slurm42/env.sh
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
ulimit -c 0

prep() {  # prep NNN -> cd into a fresh run dir, fresh scratch
  R=$RUNS/$1; W=$SCR/$1
  rm -rf "$R" "$W"; mkdir -p "$R" "$W"; cd "$R" || exit 1
}
port() { echo $((51000 + 10#$1 * 10)); }

# wait for a slurm job to finish
swait() { while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 2; done; }

r001() {  # torchrun standalone 4, tee; one rank blocks reading a FIFO nobody writes
  prep 001
  $TR --standalone --nproc-per-node 4 --tee 3 --master-port "$(port 001)" $TRAIN \
    --mode fifo --bad 2 --at 8 --steps 30 --style logging --timeout 20 --workdir $W > console.log 2>&1
}
r002() {  # mp.spawn 2, deprecation warnings, Exception ignored noise, ResourceWarning at teardown
  prep 002
  $PY $SPAWN 2 "$(port 002)" --steps 30 --style logging --workdir $W --extra warnings,del_noise,teardown_noise > console.log 2>&1
}
r003() {  # srun --label 4 --kill-on-bad-exit; one rank re-acquires a plain Lock
  prep 003
  MASTER_PORT=$(port 003) srun -n 4 --label --kill-on-bad-exit=1 $PY $TRAIN \
    --mode lock --bad 3 --at 12 --steps 40 --style print --timeout 20 --workdir $W > console.log 2>&1
}
r004() {  # mp.spawn 3, one rank grows RSS; a watcher (kill -9, like the OOM killer) ends it at 1.2 GB
  prep 004
  $PY $SPAWN 3 "$(port 004)" --mode rss_grow --bad 1 --at 10 --steps 40 --style json --timeout 20 --workdir $W > console.log 2>&1 &
  local lp=$!
  ( while kill -0 $lp 2>/dev/null; do
      for c in $(pgrep -P $lp); do
        rss=$(awk '/VmRSS/ {print $2}' /proc/$c/status 2>/dev/null)
        if [ -n "$rss" ] && [ "$rss" -gt 1200000 ]; then kill -9 "$c"; echo "$(date -Is) watcher: killed $c rss=${rss}kB" >> $W/watcher.txt; fi
      done; sleep 0.2
    done ) &
  wait $lp
}
r005() {  # srun --label 3; a read error caught, logged with traceback and retried
  prep 005
  MASTER_PORT=$(port 005) srun -n 3 --label $PY $TRAIN --steps 30 --style logging --workdir $W --extra flaky_read > console.log 2>&1
}
r006() {  # torchrun 4, --log-dir with redirects (no tee); a rank in a memory cgroup is OOM-killed
  prep 006
  $TR --standalone --nproc-per-node 4 --redirects 3 --log-dir $W/tlogs --master-port "$(port 006)" $TRAIN \
    --mode oom_cgroup --bad 3 --at 10 --steps 40 --style print --timeout 20 --workdir $W > console.log 2>&1
  rmdir /sys/fs/cgroup/memory/r42_train 2>/dev/null
  # the user hands over the launcher console and the log-dir files of local rank 0 only
  mkdir -p logs && cp -r "$(ls -d $W/tlogs/*/attempt_0/0)" logs/worker0
}
r007() {  # mp.spawn 3, hand-averaged grads; one rank all_reduces a float64 tensor (DETAIL debug)
  prep 007
  TORCH_DISTRIBUTED_DEBUG=DETAIL $PY $SPAWN 3 "$(port 007)" --no-ddp --mode dtype_coll --bad 1 --at 6 --steps 30 --style print \
    --timeout 20 --workdir $W > console.log 2>&1
}
r008() {  # sbatch --time=1 with a job that needs longer: real TIMEOUT
  prep 008
  cat > $W/job.sbatch <<EOF
#!/bin/bash
#SBATCH -J pretrain-small
#SBATCH -n 2
#SBATCH --time=1
#SBATCH -o $R/slurm-%j.out
export MASTER_PORT=$(port 008) PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST starting \$(date -Is)"
srun --label $PY $TRAIN --steps 400 --step-sleep 0.5 --log-every 10 --style logging --workdir $W
EOF
  jid=$(sbatch --parsable $W/job.sbatch); swait $jid
}
r009() {  # torchrun --max-restarts 2; one worker fails on attempt 0, restart succeeds
  prep 009
  $TR --standalone --nproc-per-node 2 --max-restarts 2 --tee 3 --master-port "$(port 009)" $TRAIN \
    --mode restart_once --bad 1 --at 5 --steps 25 --style print --workdir $W > console.log 2>&1
}
r010() {  # torchrun 3; async checkpoint writer thread hits ENOSPC (/dev/full)
  prep 010
  $TR --standalone --nproc-per-node 3 --master-port "$(port 010)" $TRAIN \
    --mode ckpt_bg_enospc --bad 0 --steps 40 --style json --timeout 20 --workdir $W > console.log 2>&1
}
r011() {  # mp.spawn 3, two metric threads deadlock on one rank
  prep 011
  $PY $SPAWN 3 "$(port 011)" --mode deadlock --bad 1 --at 9 --steps 40 --style logging --timeout 20 --workdir $W > console.log 2>&1
}
r012() {  # sbatch, srun --kill-on-bad-exit; one task hits a bad sample (ValueError), the rest are cancelled
  prep 012
  cat > $W/job.sbatch <<EOF
#!/bin/bash
#SBATCH -J sft-run
#SBATCH -n 4
#SBATCH -o $R/slurm-%j.out
export MASTER_PORT=$(port 012) PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun --label --kill-on-bad-exit=1 $PY $TRAIN --mode bad_sample --bad 1 --at 7 --steps 40 --style print --timeout 20 --workdir $W
EOF
  jid=$(sbatch --parsable $W/job.sbatch); swait $jid
}
r013() {  # mp.spawn 4, tqdm-like bar with error/failed metric names
  prep 013
  $PY $SPAWN 4 "$(port 013)" --steps 40 --style tqdm --log-every 2 --workdir $W --extra err_metrics > console.log 2>&1
}
r014() {  # two torchrun agents (nodes) with c10d rendezvous, world 4; one rank all_reduces a different shape
  prep 014
  local ep=127.0.0.1:$(port 014)
  for nr in 0 1; do
    TORCH_DISTRIBUTED_DEBUG=DETAIL $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint $ep \
      --rdzv-id job014 --tee 3 $TRAIN --no-ddp --mode shape_coll --bad 3 --at 9 --steps 40 --style print --timeout 20 \
      --workdir $W > node$nr.log 2>&1 &
    sleep 1
  done
  wait
  mv node0.log node-a.log; mv node1.log node-b.log
}
r015() {  # srun -o per task (no label); one task SIGABRTs; the user hands over srun's console only
  prep 015
  mkdir -p $W/out
  MASTER_PORT=$(port 015) srun -n 4 -o $W/out/task-%t.txt $PY $TRAIN --mode abort --bad 2 --at 8 --steps 40 \
    --style print --timeout 20 --workdir $W > console.log 2>&1
}
r016() {  # mp.spawn 4, fd leak under a low RLIMIT_NOFILE on one rank
  prep 016
  $PY $SPAWN 4 "$(port 016)" --mode emfile --bad 3 --at 5 --steps 30 --style print --timeout 20 --workdir $W > console.log 2>&1
}
r017() {  # sbatch, preemption-safe: SIGTERM -> checkpoint -> exit 0 on purpose
  prep 017
  cat > $W/job.sbatch <<EOF
#!/bin/bash
#SBATCH -J ft-preemptible
#SBATCH -n 2
#SBATCH -o $R/slurm-%j.out
export MASTER_PORT=$(port 017) PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun --label $PY $TRAIN --steps 400 --step-sleep 0.2 --log-every 10 --style logging --workdir $W --extra sigterm_ckpt
echo "srun finished with \$?"
EOF
  jid=$(sbatch --parsable $W/job.sbatch)
  sleep 20; scancel --signal=TERM "$jid"; swait $jid
}
r018() {  # torchrun 2, --max-restarts 1, a corrupt (inf) sample on one rank -> non-finite loss on both attempts
  prep 018
  $TR --standalone --nproc-per-node 2 --max-restarts 1 --tee 3 --master-port "$(port 018)" $TRAIN \
    --mode nan_data --bad 1 --at 6 --steps 30 --style logging --timeout 20 --workdir $W > console.log 2>&1
}
r019() {  # srun --label 3; rank 0 resumes from a checkpoint of another model size
  prep 019
  MASTER_PORT=$(port 019) srun -n 3 --label $PY $TRAIN --mode ckpt_load_mismatch --steps 30 --style print \
    --timeout 20 --workdir $W > console.log 2>&1
}
r020() {  # two torchrun agents c10d, JSON logs, a bad sample skipped with a logged traceback
  prep 020
  local ep=127.0.0.1:$(port 020)
  for nr in 0 1; do
    $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint $ep --rdzv-id job020 --tee 3 $TRAIN \
      --steps 30 --style json --workdir $W --extra skip_bad > n$nr.log 2>&1 &
    sleep 1
  done
  wait
  mv n0.log host1.log; mv n1.log host2.log
}
r021() {  # mp.spawn 4, a prefetcher thread dies on undecodable bytes; main thread starves
  prep 021
  $PY $SPAWN 4 "$(port 021)" --mode prefetch_exc --bad 3 --at 10 --steps 40 --style print --timeout 20 --workdir $W > console.log 2>&1
}
r022() {  # torchrun 8, DataLoader worker dies of SIGBUS (mmap'd sample file truncated)
  prep 022
  $TR --standalone --nproc-per-node 8 --tee 3 --master-port "$(port 022)" $TRAIN \
    --mode sigbus_worker --bad 6 --steps 8 --workers 2 --style print --timeout 30 --workdir $W > console.log 2>&1
}
r023() {  # srun -o per task files + console, NCCL env notices, a loss spike that recovers
  prep 023
  mkdir -p out
  MASTER_PORT=$(port 023) srun -n 4 -o out/%t.txt $PY $TRAIN --steps 30 --log-every 2 --style print --workdir $W \
    --extra nccl_env,spike > console.log 2>&1
}
r024() {  # sbatch; an operator scancels the running step
  prep 024
  cat > $W/job.sbatch <<EOF
#!/bin/bash
#SBATCH -J pretrain-eval
#SBATCH -n 3
#SBATCH -o $R/slurm-%j.out
export MASTER_PORT=$(port 024) PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun --label $PY $TRAIN --steps 400 --step-sleep 0.2 --log-every 10 --style print --workdir $W
EOF
  jid=$(sbatch --parsable $W/job.sbatch)
  sleep 20; scancel "$jid.0"; swait $jid
}
r025() {  # mp.spawn 2, one rank's shard has 17 features
  prep 025
  $PY $SPAWN 2 "$(port 025)" --mode shape_model --bad 1 --steps 30 --style logging --timeout 20 --workdir $W > console.log 2>&1
}
r026() {  # torchrun 2 console only: a native segfault in one worker
  prep 026
  $TR --standalone --nproc-per-node 2 --master-port "$(port 026)" $TRAIN \
    --mode segv --bad 1 --at 7 --steps 30 --style print --timeout 20 --workdir $W > console.log 2>&1
}
r027() {  # mp.spawn 3, trainer style, a few loss-scale overflows at warm-up
  prep 027
  $PY $SPAWN 3 "$(port 027)" --steps 40 --style trainer --workdir $W --extra fp16_warmup > console.log 2>&1
}
r028() {  # srun --label 2; one rank's checkpoint shard is truncated
  prep 028
  MASTER_PORT=$(port 028) srun -n 2 --label $PY $TRAIN --mode ckpt_corrupt --bad 1 --steps 30 --style print \
    --timeout 20 --workdir $W > console.log 2>&1
}
r029() {  # torchrun 4 --log-dir + tee; one rank runs out of data and exits 0
  prep 029
  $TR --standalone --nproc-per-node 4 --tee 3 --log-dir $W/tl --master-port "$(port 029)" $TRAIN \
    --mode early_exit --bad 2 --at 10 --steps 30 --style logging --timeout 20 --workdir $W > console.log 2>&1
}
r030() {  # torchrun 3 --log-dir + tee; a store wait times out, is caught and retried; warnings
  prep 030
  $TR --standalone --nproc-per-node 3 --tee 3 --log-dir $W/tl --master-port "$(port 030)" $TRAIN \
    --steps 30 --style logging --workdir $W --extra store_retry,warnings > console.log 2>&1
  cp -r $W/tl logs
}
r031() {  # mp.spawn 3, one rank's config points at the wrong master port
  prep 031
  $PY $SPAWN 3 "$(port 031)" --mode wrong_port --bad 2 --steps 30 --style logging --timeout 20 --workdir $W > console.log 2>&1
}
r032() {  # srun --label 4; one rank builds the model with another hidden size
  prep 032
  TORCH_DISTRIBUTED_DEBUG=DETAIL MASTER_PORT=$(port 032) srun -n 4 --label $PY $TRAIN --mode config_hidden --bad 2 \
    --steps 30 --style print --timeout 20 --workdir $W > console.log 2>&1
}
r033() {  # mp.spawn 3, lr schedule bug: loss diverges, guard aborts
  prep 033
  $PY $SPAWN 3 "$(port 033)" --mode diverge --at 5 --steps 60 --log-every 1 --style json --timeout 20 --workdir $W > console.log 2>&1
}
r034() {  # sbatch 2 tasks, clean finish with noisy teardown
  prep 034
  cat > $W/job.sbatch <<EOF
#!/bin/bash
#SBATCH -J nightly-regress
#SBATCH -n 2
#SBATCH -o $R/slurm-%j.out
export MASTER_PORT=$(port 034) PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
srun --label $PY -W default $TRAIN --steps 30 --style print --workdir $W --extra warnings,del_noise,teardown_noise,ckpt_bg
echo "exit \$?"
EOF
  jid=$(sbatch --parsable $W/job.sbatch); swait $jid
}
r035() {  # torchrun 3 with @record, redirects to --log-dir, no tee; console only; a missing shard file
  prep 035
  USE_RECORD=1 $TR --standalone --nproc-per-node 3 --redirects 3 --log-dir $W/tl --master-port "$(port 035)" $TRAIN \
    --mode missing_shard --bad 1 --at 4 --steps 30 --style print --timeout 20 --workdir $W > console.log 2>&1
}
r036() {  # mp.spawn 2, a metrics-uploader thread dies (sidecar down) and training finishes
  prep 036
  $PY $SPAWN 2 "$(port 036)" --steps 30 --style print --workdir $W --extra metrics_crash,ckpt_bg > console.log 2>&1
}
r037() {  # torchrun 2, trainer style, prefetch thread, error-ish metric names, loss spike, Exception ignored
  prep 037
  $TR --standalone --nproc-per-node 2 --master-port "$(port 037)" $TRAIN \
    --steps 40 --style trainer --log-every 4 --workdir $W --extra prefetch,err_metrics,spike,del_noise > console.log 2>&1
}
r038() {  # srun --label 3 --kill-on-bad-exit; one task in a memory cgroup is OOM-killed
  prep 038
  MASTER_PORT=$(port 038) srun -n 3 --label --kill-on-bad-exit=1 $PY $TRAIN --mode oom_cgroup --bad 1 --at 8 \
    --steps 40 --style print --timeout 20 --workdir $W > console.log 2>&1
  rmdir /sys/fs/cgroup/memory/r42_train 2>/dev/null
}

if [ $# -eq 0 ]; then set -- $(seq 1 38); fi
for n in "$@"; do
  n=$(printf %03d $((10#$n)))
  echo "== $n $(date +%T)"; r$n; echo "   rc=$? $(date +%T)"
done
