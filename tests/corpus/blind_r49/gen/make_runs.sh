#!/usr/bin/env bash
# Regenerate every run of the r49 set: bash make_runs.sh NAME... (or "all"); outputs under $W/<name>, then
# assemble.sh copies them to ../runs/NNN in the fixed order of ORDER.
set -u
G=$(cd "$(dirname "$0")" && pwd)
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
W=${W:-/tmp/r49w}
source /work/blind/slurm49/env.sh
export PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1

new() { rm -rf "$W/$1"; mkdir -p "$W/$1/out"; cd "$W/$1"; }

run_eval()   { new eval; $TR --nproc-per-node 4 --master-port 58001 --tee 3 --log-dir out/torchrun_logs $G/h_eval.py > out/console.log 2>&1; echo rc=$?; }
run_infer()  { new infer; $PY $G/h_infer.py $W/infer/predictions.jsonl > out/console.log 2>&1; echo rc=$?; }
run_resume() {
  new resume; mkdir -p ck
  $TR --nproc-per-node 2 --master-port 58003 $G/h_resume.py ck first 100000 > first.log 2>&1 & P=$!
  sleep 12; kill -TERM $P; wait $P; echo first-rc=$?
  $TR --nproc-per-node 2 --master-port 58003 --log-dir out/logs --redirects 3 $G/h_resume.py ck resume 900 > out/console.log 2>&1; echo rc=$?; }
run_compile() { new compile; TORCH_LOGS="recompiles,graph_breaks" $TR --nproc-per-node 2 --master-port 58004 $G/h_compile.py > out/console.log 2>&1; echo rc=$?; }
run_ddpdebug() { new ddpdebug; TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO MASTER_PORT=58005 srun --label -n 4 $PY $G/h_ddp_debug.py > out/console.log 2>&1; echo rc=$?; }
run_profile() { new profile; $TR --nproc-per-node 2 --master-port 58006 $G/h_profile.py > out/console.log 2>&1; echo rc=$?; }
run_sigterm() {
  new sigterm; $TR --nproc-per-node 4 --master-port 58007 --tee 3 $G/h_sigterm.py $W/sigterm/final.pt > out/console.log 2>&1 & P=$!
  sleep 15; kill -TERM $P; wait $P; echo rc=$?; }
run_accum() {
  new accum
  cat > job.sbatch <<SB
#!/bin/bash
#SBATCH -J accum-fp16 -n 2 -o $W/accum/out/slurm-%j.out
export MASTER_PORT=58008 PYTHONUNBUFFERED=1
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun $PY $G/h_accum.py
echo "job finished"
SB
  J=$(sbatch --parsable job.sbatch); while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done; echo job=$J; }
two_nodes() {  # name port script args... : two torchrun agents with a c10d rendezvous, 2 procs each
  local n=$1 port=$2; shift 2
  for node in 0 1; do
    LOGLEVEL=INFO $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$port --rdzv-id job-$n --max-restarts 0 "$@" > out/node$node.log 2>&1 &
    sleep 3
  done; wait; }
run_bf16() { new bf16; two_nodes bf16 58009 $G/h_bf16.py; echo done; }
run_workers() { new workers; $PY $G/h_workers.py > out/console.log 2>&1; echo rc=$?; }
run_download() {
  new download; $PY $G/flaky_server.py 58011 & S=$!; sleep 1
  $TR --nproc-per-node 2 --master-port 58010 --tee 3 $G/h_download.py http://127.0.0.1:58011/toyset.tar.gz $W/download/data > out/console.log 2>&1; echo rc=$?
  kill $S; }
run_wandb() { new wandb; MASTER_PORT=58013 srun -n 2 $PY $G/h_wandb.py $W/wandb/runs > out/console.log 2>&1; echo rc=$?; }
run_caught() { new caught; $TR --nproc-per-node 2 --master-port 58014 --log-dir out/logs --redirects 3 $G/h_caught.py > out/console.log 2>&1; echo rc=$?; }
run_hf() { new hf; $TR --nproc-per-node 2 --master-port 58015 $G/h_hf.py $W/hf/ckpt > out/console.log 2>&1; echo rc=$?; }
run_lightning() { new lightning; MASTER_PORT=58016 $PY $G/h_lightning.py $W/lightning/root > out/console.log 2>&1; echo rc=$?; }
run_accel() { new accel; $TR --nproc-per-node 2 --master-port 58018 $G/h_accel.py $W/accel/state > out/console.log 2>&1; echo rc=$?; }
run_long() { new long; MASTER_PORT=58019 srun --label -n 4 $PY $G/h_long.py > out/console.log 2>&1; echo rc=$?; }
run_multinode() { new multinode; two_nodes multinode 58020 $G/h_multinode.py; echo done; }
run_join() { new join; $PY $G/h_join.py > out/console.log 2>&1; echo rc=$?; }
run_tqdm() { new tqdm; MASTER_PORT=58022 srun -n 2 -o "out/train-%t.out" $PY $G/h_tqdm.py; echo rc=$?; }

# ---- failing runs
run_data() {
  new data; mkdir -p shards
  $PY - <<PYEOF
import json, random
random.seed(0)
for r in range(4):
    with open(f"shards/shard-{r:05d}.jsonl", "wb") as f:
        for i in range(80):
            rec = json.dumps({"tokens": [random.randint(0, 99) for _ in range(32)], "labels": [random.randint(0, 9) for _ in range(32)]}).encode()
            if r == 2 and i == 16:
                rec = rec[:40] + b"\xff\xfe\x00" + rec[43:]  # a torn record in shard 2
            f.write(rec + b"\n")
PYEOF
  $TR --nproc-per-node 4 --master-port 58030 --tee 3 --log-dir out/logs $G/f_train.py --mode data --data $W/data/shards --sleep 0.05 > out/console.log 2>&1; echo rc=$?; }
run_oom() {
  new oom; CG=/sys/fs/cgroup/memory/r49job; rmdir $CG 2>/dev/null; mkdir -p $CG; echo $((700*1024*1024)) > $CG/memory.limit_in_bytes
  MASTER_PORT=58031 srun --label -n 4 $PY $G/f_train.py --mode oom --bad-rank 3 --cgroup $CG --sleep 0.2 > out/console.log 2>&1; echo rc=$?
  cat $CG/memory.failcnt; grep oom_kill $CG/memory.oom_control; }
run_mismatch() { new mismatch; TORCH_DISTRIBUTED_DEBUG=DETAIL $TR --nproc-per-node 4 --master-port 58032 $G/f_train.py --mode mismatch --bad-rank 2 --sleep 0.05 > out/console.log 2>&1; echo rc=$?; }
run_hang() { new hang; $TR --nproc-per-node 4 --master-port 58033 --log-dir out/logs --redirects 3 $G/f_train.py --mode hang --bad-rank 1 --timeout 30 --sleep 0.1 > out/console.log 2>&1; echo rc=$?; }
run_timelimit() {
  new timelimit
  cat > job.sbatch <<SB
#!/bin/bash
#SBATCH -J pretrain-small -n 4 --time=1 -o $W/timelimit/out/slurm-%j.out
export MASTER_PORT=58034 PYTHONUNBUFFERED=1
echo "starting \$SLURM_NTASKS tasks on \$SLURM_JOB_NODELIST at \$(date)"
srun $PY $G/f_train.py --mode none --steps 600 --sleep 0.3
SB
  J=$(sbatch --parsable job.sbatch); while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 3; done; scontrol show job $J | grep -E "JobState|RunTime"; }
run_enospc() {
  new enospc; M=$W/enospc/ckpt; mkdir -p $M; mountpoint -q $M || mount -t tmpfs -o size=8m tmpfs $M
  two_nodes enospc 58035 $G/f_train.py --mode enospc --ckpt $M --sleep 0.05; umount $M; echo done; }
run_nan() { new nan; MASTER_PORT=58036 srun -n 8 -o "out/log-%t.txt" $PY $G/f_train.py --mode nan --bad-rank 5 --sleep 0.05; echo rc=$?; }
run_early() { new early; $TR --nproc-per-node 6 --master-port 58037 --tee 3 $G/f_train.py --mode early --bad-rank 4 --timeout 40 > out/console.log 2>&1; echo rc=$?; }
run_bgthread() { new bgthread; MASTER_PORT=58038 srun -n 4 $PY $G/f_train.py --mode bgthread --bad-rank 3 --sleep 0.05 > out/console.log 2>&1; echo rc=$?; }
run_rdzv() {
  new rdzv
  LOGLEVEL=INFO $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:58039 --rdzv-id job-rdzv --rdzv-conf join_timeout=30 $G/f_train.py --mode none > out/node0.log 2>&1 &
  sleep 2
  LOGLEVEL=INFO $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.2:58040 --rdzv-id job-rdzv --rdzv-conf join_timeout=30 $G/f_train.py --mode none > out/node1.log 2>&1 &
  wait; echo done; }

ALL="eval infer resume compile ddpdebug profile sigterm accum bf16 workers download wandb caught hf lightning accel long multinode join tqdm data oom mismatch hang timelimit enospc nan early bgthread rdzv"
[ "${1:-}" = all ] && set -- $ALL
for n in "$@"; do echo "== $n"; ( run_$n ) 2>&1 | tail -5; done
