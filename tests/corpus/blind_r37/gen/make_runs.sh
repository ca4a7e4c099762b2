#!/usr/bin/env bash
# Regenerate one run (or all): bash make_runs.sh 001 [002 ...] | bash make_runs.sh all
# Needs: /work/blind/venv (CPU torch), root (cgroup v1 memory, tmpfs mounts), the private Slurm
# (bash /work/blind/slurm37/start.sh; this script sources its env.sh).
set -u
source /work/blind/slurm37/env.sh
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
T=/work/blind/r37/set/gen/train.py
R=/work/blind/r37/set/runs
W=/work/blind/r37/work/j
export PATH=/work/blind/venv/bin:$PATH

prep() {  # prep NNN: fresh run dir and scratch dir; exports JOB_DIR, RUN_ID, MASTER_*
  N=$1; OUT=$R/$N; J=$W/$N
  rm -rf "$OUT" "$J"; mkdir -p "$OUT" "$J/shards" "$J/ckpt"
  export JOB_DIR=$J RUN_ID=$N MASTER_ADDR=127.0.0.1 MASTER_PORT=$((45100 + 10#$N))
  cd "$OUT"
}
SRUN="srun --kill-on-bad-exit=1 -N1 --overcommit"

run() {
case $1 in
001) prep 001  # torchrun, tee'd console: corrupt JSON line in a data shard read by one rank
  printf '{"features": [%s]}\n{"features": [0.1, 0.2, 0.3,, 0.4]}\n' "$(seq -s, 1 16)" > $J/shards/shard-00017.jsonl
  JOB_MODE=badjson JOB_BAD=2 JOB_AT=4 JOB_STYLE=logging \
    $TR --nproc-per-node=4 --master-port=$MASTER_PORT --log-dir $J/tl --tee 3 $T > console.log 2>&1 ;;
002) prep 002  # srun --label: one rank blocks reading a FIFO, others hit the gloo timeout
  mkfifo $J/shards/index.fifo
  JOB_MODE=hang_io JOB_BAD=1 JOB_AT=5 JOB_TIMEOUT=25 JOB_STYLE=print \
    $SRUN -n4 --label $PY $T > console.log 2>&1 ;;
003) prep 003  # torchrun --log-dir --redirects 3 (no tee): rank 3 in a 600 MB memory cgroup grows until OOM-killed
  JOB_MODE=cg_oom JOB_BAD=3 JOB_AT=4 JOB_STYLE=json \
    $TR --nproc-per-node=4 --master-port=$MASTER_PORT --log-dir logs --redirects 3 $T > console.log 2>&1 ;;
004) prep 004  # srun -o per task: rank 2 OOM-killed by its cgroup
  JOB_MODE=cg_oom JOB_BAD=2 JOB_AT=5 JOB_STYLE=print \
    $SRUN -n4 -o "task-%t.out" $PY $T > console.log 2>&1 ;;
005) prep 005  # torchrun --tee: a DataLoader worker of rank 1 segfaults
  JOB_MODE=dl_segv JOB_BAD=1 JOB_AT=4 JOB_WORKERS=2 JOB_STYLE=print \
    $TR --nproc-per-node=4 --master-port=$MASTER_PORT --log-dir $J/tl --tee 3 $T > console.log 2>&1 ;;
006) prep 006  # srun --label, only the tail handed over: a DataLoader worker of rank 3 gets SIGBUS
  JOB_MODE=dl_bus JOB_BAD=3 JOB_AT=4 JOB_WORKERS=2 JOB_STYLE=logging \
    $SRUN -n4 --label $PY $T > $J/full_console.log 2>&1
  tail -n 45 $J/full_console.log > console.log ;;
007) prep 007  # torchrun: rank 3 all_reduces a 3-element tensor, the others 2 (DETAIL debug; no DDP: DDP+DETAIL segfaults here)
  JOB_NODDP=1 TORCH_DISTRIBUTED_DEBUG=DETAIL JOB_MODE=mismatch JOB_BAD=3 JOB_AT=4 JOB_STYLE=print \
    $TR --nproc-per-node=4 --master-port=$MASTER_PORT $T > console.log 2>&1 ;;
008) prep 008  # srun --label: rank 1 has a shorter shard list, finishes and exits 0; the others wait
  JOB_MODE=early_exit JOB_BAD=1 JOB_AT=4 JOB_TIMEOUT=25 JOB_STYLE=print \
    $SRUN -n4 --label $PY $T > console.log 2>&1 ;;
009) prep 009  # sbatch, no --label: async checkpoint thread of rank 1 writes to a read-only mount
  mkdir -p $J/ro && mount -t tmpfs -o size=1m tmpfs $J/ro && mkdir -p $J/ro/ckpt-mirror && mount -o remount,ro $J/ro
  cat > $J/job.sh <<EOS
#!/bin/bash
#SBATCH -n 4 -N 1 -J lm-pretrain -o $OUT/slurm-%j.out --overcommit
export JOB_MODE=ckpt_thread JOB_BAD=1 JOB_AT=4 JOB_STYLE=trainer JOB_CKPT_DIR=$J/ro/ckpt-mirror JOB_STEPS=14
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST: \$SLURM_NTASKS tasks"
srun --kill-on-bad-exit=1 $PY $T
EOS
  JOBID=$(sbatch --parsable $J/job.sh); wait_job $JOBID; umount $J/ro ;;
010) prep 010  # torchrun --tee: rank 2 gets an inf feature; its loss is inf; the trainer stops
  JOB_MODE=nan JOB_BAD=2 JOB_AT=5 JOB_STYLE=trainer \
    $TR --nproc-per-node=4 --master-port=$MASTER_PORT --log-dir $J/tl --tee 3 $T > console.log 2>&1 ;;
011) prep 011  # sbatch + srun --label: rank 0's checkpoint goes to a 1 MiB tmpfs
  mkdir -p $J/small && mount -t tmpfs -o size=1m tmpfs $J/small
  cat > $J/job.sh <<EOS
#!/bin/bash
#SBATCH -n 4 -N 1 -J lm-ft -o $OUT/slurm-%j.out --overcommit
export JOB_MODE=ckpt_enospc JOB_BAD=0 JOB_AT=4 JOB_STYLE=logging JOB_CKPT_DIR=$J/small/ckpt
srun --kill-on-bad-exit=1 --label $PY $T
EOS
  JOBID=$(sbatch --parsable $J/job.sh); wait_job $JOBID; umount $J/small ;;
012) prep 012  # torchrun --log-dir --redirects 3, per-rank files only: rank 0 resumes from a truncated checkpoint
  $PY -c "import torch,torch.nn as nn;m=nn.Sequential(nn.Linear(16,32),nn.ReLU(),nn.Linear(32,1));torch.save({'model':m.state_dict(),'blob':torch.zeros(50000)},'$J/ckpt/step_000400.pt')"
  truncate -s 60000 $J/ckpt/step_000400.pt
  JOB_MODE=resume_corrupt JOB_BAD=0 JOB_STYLE=logging \
    $TR --nproc-per-node=4 --master-port=$MASTER_PORT --log-dir logs --redirects 3 $T > $J/console.log 2>&1 ;;
013) prep 013  # srun --label: every rank loads a checkpoint of a wider model
  $PY -c "import torch,torch.nn as nn;m=nn.Sequential(nn.Linear(16,64),nn.ReLU(),nn.Linear(64,1));torch.save({'model':m.state_dict()},'$J/ckpt/step_000400.pt')"
  JOB_MODE=resume_keys JOB_STYLE=print $SRUN -n4 --label $PY $T > console.log 2>&1 ;;
014) prep 014  # srun --label: rank 0's async checkpoint writer blocks opening its temp file (a FIFO)
  mkfifo $J/ckpt/step_000004.pt.tmp
  JOB_MODE=ckpt_hang JOB_BAD=0 JOB_TIMEOUT=25 JOB_STYLE=logging \
    $SRUN -n4 --label $PY $T > console.log 2>&1 ;;
015) prep 015  # torchrun: rank 0 fetches the model config from a hub that refuses; grep of the errors handed over
  JOB_MODE=hub JOB_BAD=0 JOB_STYLE=logging \
    $TR --nproc-per-node=4 --master-port=$MASTER_PORT --log-dir $J/tl --tee 3 $T > $J/console.log 2>&1
  grep -iE 'error|exception|fail|refused|traceback|signal' $J/console.log > grep_out.txt ;;
016) prep 016  # torchrun --log-dir + --tee, only the log dir handed over: rank 3 gets float64 batches
  JOB_MODE=dtype JOB_BAD=3 JOB_AT=4 JOB_STYLE=logging \
    $TR --nproc-per-node=4 --master-port=$MASTER_PORT --log-dir logs --tee 3 $T > $J/console.log 2>&1 ;;
017) prep 017  # srun -o per task, DataLoader workers everywhere: rank 1's batches have 17 features
  JOB_MODE=shape JOB_BAD=1 JOB_AT=4 JOB_WORKERS=2 JOB_STYLE=print \
    $SRUN -n4 -o "task-%t.out" $PY $T > console.log 2>&1 ;;
018) prep 018  # torchrun, ulimit -n 256: rank 2 opens every shard file and keeps them open
  for i in $(seq -w 1 300); do echo '{}' > $J/shards/shard-00$i.jsonl; done
  (ulimit -n 256; JOB_MODE=emfile JOB_BAD=2 JOB_AT=4 JOB_STYLE=print \
    $TR --nproc-per-node=4 --master-port=$MASTER_PORT --log-dir $J/tl --tee 3 $T > console.log 2>&1) ;;
019) prep 019  # srun --label: the MASTER_PORT is held by another (stale) server
  $PY -c "import socket,time;s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);s.bind(('0.0.0.0',$MASTER_PORT));s.listen(16);time.sleep(90)" &
  HOLD=$!; sleep 1
  JOB_TIMEOUT=20 JOB_STYLE=print $SRUN -n4 --label $PY $T > console.log 2>&1
  kill $HOLD ;;
020) prep 020  # torchrun c10d rendezvous for 2 nodes, only one node's agent ever starts
  JOB_STYLE=print $TR --nnodes=2 --nproc-per-node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:$MASTER_PORT \
    --rdzv-id=lm7b-run3 --rdzv-conf join_timeout=20 $T > console.log 2>&1 ;;
021) prep 021  # sbatch --time=1 with a long run: Slurm time limit
  cat > $J/job.sh <<EOS
#!/bin/bash
#SBATCH -n 4 -N 1 -J lm-long -t 1 -o $OUT/slurm-%j.out --overcommit
export JOB_STYLE=print JOB_STEPS=2000 JOB_SLEEP=0.5
srun --label $PY $T
EOS
  JOBID=$(sbatch --parsable $J/job.sh); wait_job $JOBID ;;
022) prep 022  # sbatch; the job is cancelled (SIGTERM) mid-run, the trainer saves and exits
  cat > $J/job.sh <<EOS
#!/bin/bash
#SBATCH -n 4 -N 1 -J lm-spot -o $OUT/slurm-%j.out --overcommit
export JOB_MODE=sigterm_ok JOB_STYLE=logging JOB_STEPS=2000 JOB_SLEEP=0.5
srun --label $PY $T
EOS
  JOBID=$(sbatch --parsable $J/job.sh); sleep 30; scancel $JOBID; wait_job $JOBID ;;
023) prep 023  # sbatch: rank 2 deadlocks on a non-reentrant lock; faulthandler dumps stacks; user cancels
  cat > $J/job.sh <<EOS
#!/bin/bash
#SBATCH -n 4 -N 1 -J lm-dbg -o $OUT/slurm-%j.out --overcommit
export JOB_MODE=deadlock JOB_BAD=2 JOB_AT=5 JOB_STYLE=print JOB_TIMEOUT=600 JOB_HANGDUMP=15 JOB_STEPS=40
srun --label $PY $T
EOS
  JOBID=$(sbatch --parsable $J/job.sh); sleep 55; scancel $JOBID; wait_job $JOBID ;;
024) prep 024  # mp.spawn 4 processes: rank 1's warmup schedule divides by zero
  JOB_SPAWN=4 JOB_MODE=zerodiv JOB_BAD=1 JOB_AT=3 JOB_STYLE=logging WARMUP_STEPS=0 $PY $T > console.log 2>&1 ;;
025) prep 025  # torchrun, two agents as nodes (c10d), only node 1's files handed over: rank 3 OOM-killed
  mkdir -p node1
  (JOB_MODE=cg_oom JOB_BAD=3 JOB_AT=5 JOB_STYLE=logging $TR --nnodes=2 --nproc-per-node=2 --node-rank=0 --rdzv-backend=c10d \
    --rdzv-endpoint=127.0.0.1:$MASTER_PORT --rdzv-id=job25 --log-dir $J/node0-logs --tee 3 $T > $J/node0-console.log 2>&1 &)
  JOB_MODE=cg_oom JOB_BAD=3 JOB_AT=5 JOB_STYLE=logging $TR --nnodes=2 --nproc-per-node=2 --node-rank=1 --rdzv-backend=c10d \
    --rdzv-endpoint=127.0.0.1:$MASTER_PORT --rdzv-id=job25 --log-dir node1/logs --tee 3 $T > node1/console.log 2>&1
  sleep 40 ;;
026) prep 026  # srun --label: rank 3 blocks reading the validation index; monitored_barrier names it
  mkfifo $J/shards/val_index.fifo
  JOB_MODE=mbarrier JOB_BAD=3 JOB_AT=4 JOB_TIMEOUT=40 JOB_STYLE=logging \
    $SRUN -n4 --label $PY $T > console.log 2>&1 ;;
027) prep 027  # torchrun 8 ranks --tee: rank 5 OOM-killed by its cgroup
  JOB_MODE=cg_oom JOB_BAD=5 JOB_AT=4 JOB_STYLE=logging JOB_STEPS=10 \
    $TR --nproc-per-node=8 --master-port=$MASTER_PORT --log-dir $J/tl --tee 3 $T > console.log 2>&1
  # the kernel's line for the killed pid (only this line: the oom-kill: line names the cgroup, which names the rank)
  P=$(grep -ao 'failed (exitcode: -9) local_rank: [0-9]* (pid: [0-9]*' console.log | grep -o '[0-9]*$')
  dmesg | grep "Killed process $P " > dmesg.txt ;;
028) prep 028  # torchrun --log-dir --redirects 3: rank 3 silently blocks on a FIFO; the others time out
  mkfifo $J/shards/index.fifo
  JOB_MODE=hang_io JOB_BAD=3 JOB_AT=4 JOB_TIMEOUT=25 JOB_STYLE=logging \
    $TR --nproc-per-node=4 --master-port=$MASTER_PORT --log-dir logs --redirects 3 $T > console.log 2>&1 ;;
029) prep 029  # healthy: torchrun --tee, logging, a UserWarning, async checkpoints
  JOB_STYLE=logging $TR --nproc-per-node=4 --master-port=$MASTER_PORT --log-dir $J/tl --tee 3 $T > console.log 2>&1 ;;
030) prep 030  # healthy: srun --label, JSON lines; rank 2's metrics upload is retried once after a reset
  JOB_MODE=warn_retry JOB_BAD=2 JOB_AT=5 JOB_STYLE=json $SRUN -n4 --label $PY $T > console.log 2>&1 ;;
031) prep 031  # healthy: sbatch, 2 tasks, progress bars
  cat > $J/job.sh <<EOS
#!/bin/bash
#SBATCH -n 2 -N 1 -J lm-small -o $OUT/slurm-%j.out --overcommit
export JOB_STYLE=bar JOB_STEPS=20
srun --label $PY $T
EOS
  JOBID=$(sbatch --parsable $J/job.sh); wait_job $JOBID ;;
032) prep 032  # healthy: mp.spawn 2 processes, trainer-style logging
  JOB_SPAWN=2 JOB_STYLE=trainer $PY $T > console.log 2>&1 ;;
033) prep 033  # healthy: torchrun, two agents x 4 processes (8 ranks), c10d rendezvous, both consoles
  (JOB_STYLE=print JOB_STEPS=8 $TR --nnodes=2 --nproc-per-node=4 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:$MASTER_PORT \
    --rdzv-id=job33 $T > nodeA.log 2>&1 &)
  JOB_STYLE=print JOB_STEPS=8 $TR --nnodes=2 --nproc-per-node=4 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:$MASTER_PORT \
    --rdzv-id=job33 $T > nodeB.log 2>&1; sleep 5 ;;
034) prep 034  # healthy: srun -o per task, 4 tasks, DataLoader workers
  JOB_STYLE=print JOB_WORKERS=1 $SRUN -n4 -o "task-%t.out" $PY $T > console.log 2>&1 ;;
esac
}

wait_job() { while squeue -h -j "$1" 2>/dev/null | grep -q .; do sleep 2; done; }

if [ "${1:-}" = all ]; then set -- $(seq -w 1 34 | sed 's/^/0/;s/^0\(...\)$/\1/'); fi
for n in "$@"; do echo "== $n"; ( run "$n" ); done
