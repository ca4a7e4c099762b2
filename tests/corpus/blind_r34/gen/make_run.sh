#!/usr/bin/env bash
# make_run.sh NNN : produce runs/NNN of set r34 (real runs; files under runs/ are raw outputs or shell cuts made here)
set -u
N=$1
B=/work/blind/r34
PY=/work/blind/venv/bin/python
TR=/work/blind/venv/bin/torchrun
T=$B/gen/train.py
export PATH=/work/blind/venv/bin:$PATH
export SLURM_CONF=$B/slurm/slurm.conf
R=$B/runs/$N
W=/tmp/r34w/$N            # scratch (not handed to the tool)
rm -rf "$R" "$W"; mkdir -p "$R" "$W"
cd "$R"
P=$((40000 + 10#$N * 20))
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$P PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1

pid_of() { # pid_of VAR VALUE : the train.py process whose environment has VAR=VALUE
  for p in $(pgrep -f "r34/gen/train.py"); do
    if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx "$1=$2"; then
      # the worker itself, not a launcher: its parent must not also match
      pp=$(awk '{print $4}' /proc/$p/stat)
      if ! tr '\0' '\n' < /proc/$pp/environ 2>/dev/null | grep -qx "$1=$2"; then echo $p; return; fi
    fi
  done
}
wait_for() { # wait_for FILE PATTERN SECONDS
  for _ in $(seq 1 $(( $3 * 5 ))); do grep -rq -- "$2" $1 2>/dev/null && return 0; sleep 0.2; done; return 1
}
trn() { $TR --nproc-per-node "$1" --master-addr 127.0.0.1 --master-port $P "${@:2}"; }

case $N in
001) # torchrun, 4 ranks, whole console; ValueError in the step on rank 2
  SCEN=exc_value FAIL_RANK=2 FAIL_STEP=12 timeout 150 $TR --nproc-per-node 4 --master-port $P $T > console.txt 2>&1 ;;
002) # torchrun --log-dir --tee 3; JSONL shard of rank 1 has a truncated record; DataLoader workers
  mkdir -p $W/data; $PY - $W/data <<'EOF'
import json, random, sys
for r in range(3):
    rnd = random.Random(r)
    with open(f"{sys.argv[1]}/shard-{r:02d}.jsonl", "w") as f:
        for i in range(512):
            x = [round(rnd.gauss(0, 1), 4) for _ in range(32)]
            line = json.dumps({"x": x, "y": round(sum(x) / 8, 4)})
            if r == 1 and i == 201:
                line = line[:57]
            f.write(line + "\n")
EOF
  DATA_DIR=$W/data WORKERS=2 SCEN=data STEPS=40 timeout 150 $TR --nproc-per-node 3 --master-port $P --log-dir $R/logs --tee 3 $T > /dev/null 2>$W/agent.err
  cp $W/agent.err $R/launcher.txt ;;
003) # srun --label, 3 tasks; callback TypeError on rank 0
  SCEN=callback FAIL_RANK=0 FAIL_STEP=8 timeout 150 srun -K --label -n 3 -J pretrain $PY $T > console.txt 2>&1 ;;
004) # torchrun 3 ranks; async checkpoint writer thread raises on rank 1, surfaced at the next save
  SCEN=thread_exc FAIL_RANK=1 FAIL_STEP=20 CKPT_DIR=$W/ckpt CKPT_EVERY=10 STEPS=40 timeout 150 $TR --nproc-per-node 3 --master-port $P $T > train.log 2>&1 ;;
005) # torchrun 4 ranks; rank 3 sleeps at step 15, others hit the gloo timeout
  SCEN=sleep FAIL_RANK=3 FAIL_STEP=15 PG_TIMEOUT=30 timeout 170 $TR --nproc-per-node 4 --master-port $P $T > console.txt 2>&1 ;;
006) # srun -o %x-%j-%t.out 3 tasks; rank 1 blocks opening a FIFO with no writer
  mkfifo $W/fifo
  SCEN=fifo_read FIFO_PATH=$W/fifo FAIL_RANK=1 FAIL_STEP=6 PG_TIMEOUT=30 timeout 150 srun -K -n 3 -J ft-llm -o "$R/%x-%j-%t.out" $PY $T > $W/srun.txt 2>&1 ;;
007) # mp.spawn 3 procs; rank 0 deadlocks on a non-reentrant lock
  SPAWN=3 SCEN=deadlock FAIL_RANK=0 FAIL_STEP=9 PG_TIMEOUT=30 timeout 150 $PY $T > console.txt 2>&1 ;;
008) # torchrun 4 ranks; rank 2 put in a memory cgroup (limit 1500M) and grows a cache: kernel OOM kill
  CG=/sys/fs/cgroup/memory/r34_008; rmdir $CG 2>/dev/null; mkdir $CG; echo 1500M > $CG/memory.limit_in_bytes
  dmesg -c > /dev/null
  OOM_CGROUP=$CG SCEN=cgroup_oom FAIL_RANK=2 FAIL_STEP=11 timeout 150 $TR --nproc-per-node 4 --master-port $P $T > console.txt 2>&1
  dmesg -T | grep -iE -A0 'oom|killed process|memory cgroup' > dmesg.txt
  rmdir $CG 2>/dev/null ;;
009) # torchrun --redirects 3 --log-dir; rank 1 under prlimit --as, allocation loop
  SCEN=prlimit_oom FAIL_RANK=1 FAIL_STEP=7 timeout 150 $TR --nproc-per-node 3 --master-port $P --redirects 3 --log-dir $R/logs $T > console.txt 2>&1 ;;
010) # sbatch + srun --label, 4 tasks; task 3 kill -9 from outside at step 10
  cat > $W/job.sh <<EOF
#!/bin/bash
#SBATCH -J lm-pt -n 4 -o $R/slurm-%j.out
export PYTHONUNBUFFERED=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$P SCEN=healthy STEPS=60 OMP_NUM_THREADS=1
echo "starting on \$(hostname) at \$(date)"
srun --label $PY $T
EOF
  jid=$(sbatch --parsable $W/job.sh); wait_for "$R/slurm-$jid.out" "step 10/" 90
  kill -9 $(pid_of SLURM_PROCID 3)
  for _ in $(seq 1 150); do squeue -h -j $jid | grep -q . || break; sleep 1; done ;;
011) # torchrun 3 ranks; os.abort() on rank 1
  SCEN=abort FAIL_RANK=1 FAIL_STEP=9 timeout 150 $TR --nproc-per-node 3 --master-port $P $T > console.txt 2>&1 ;;
012) # srun without --label, 2 tasks, plain log format (no rank in lines); ctypes null deref on rank 1
  LOGFMT=plain SCEN=segv FAIL_RANK=1 FAIL_STEP=13 timeout 150 srun -K -n 2 -J sft $PY $T > out.txt 2>&1 ;;
013) # torchrun 4 ranks; rank 3's data shard is shorter: it finishes its epoch and returns (exit 0)
  SCEN=early_exit FAIL_RANK=3 FAIL_STEP=12 STEPS=40 PG_TIMEOUT=30 timeout 170 $TR --nproc-per-node 4 --master-port $P $T > console.txt 2>&1 ;;
014) # torchrun 3 ranks, TORCH_DISTRIBUTED_DEBUG=DETAIL; rank 2 all_reduces a 3-element metrics tensor, others 2
  NO_DDP=1 TORCH_DISTRIBUTED_DEBUG=DETAIL SCEN=mismatch_shape FAIL_RANK=2 FAIL_STEP=10 PG_TIMEOUT=30 timeout 150 $TR --nproc-per-node 3 --master-port $P $T > console.txt 2>&1 ;;
015) # mp.spawn 3 procs, DETAIL; rank 1 broadcasts while the others all_reduce
  NO_DDP=1 SPAWN=3 TORCH_DISTRIBUTED_DEBUG=DETAIL SCEN=mismatch_op FAIL_RANK=1 FAIL_STEP=8 PG_TIMEOUT=30 timeout 150 $PY $T > console.txt 2>&1 ;;
016) # torchrun 4 ranks; an inf in rank 2's batch at step 14, NaN guard raises
  SCEN=nan FAIL_RANK=2 FAIL_STEP=14 PG_TIMEOUT=30 timeout 150 $TR --nproc-per-node 4 --master-port $P $T > console.txt 2>&1 ;;
017) # srun --label 2 tasks; LR 0.08 without clipping: loss diverges, run completes
  SCEN=diverge LR=0.08 STEPS=45 timeout 150 srun -K --label -n 2 -J pt-lr-sweep $PY $T > console.txt 2>&1 ;;
018) # torchrun 2 ranks; rank 0 saves to a 3 MiB tmpfs: ENOSPC
  mkdir -p /mnt/r34_018; umount /mnt/r34_018 2>/dev/null; mount -t tmpfs -o size=3m tmpfs /mnt/r34_018
  SCEN=ckpt_rank0 CKPT_DIR=/mnt/r34_018/ckpt CKPT_EVERY=10 CKPT_PAD=300000 STEPS=40 PG_TIMEOUT=30 timeout 150 $TR --nproc-per-node 2 --master-port $P $T > console.txt 2>&1
  umount /mnt/r34_018 ;;
019) # HEALTHY: torchrun --max-restarts 1, --log-dir --tee 3; rank 1 fails on attempt 0, restart succeeds
  SCEN=transient FAIL_RANK=1 FAIL_STEP=6 STEPS=20 timeout 150 $TR --nproc-per-node 3 --max-restarts 1 --master-port $P --log-dir $R/logs --tee 3 $T > console.txt 2>&1 ;;
020) # torchrun 4 ranks without CAP_DAC_OVERRIDE (like a non-root user); rank 0 saves into a 0555 dir: EACCES
  mkdir -p /tmp/r34w/shared/ckpt-pt && chmod 555 /tmp/r34w/shared/ckpt-pt
  SCEN=ckpt_rank0 CKPT_DIR=/tmp/r34w/shared/ckpt-pt CKPT_EVERY=10 STEPS=30 PG_TIMEOUT=30 timeout 150 setpriv --bounding-set -dac_override,-dac_read_search --inh-caps -dac_override,-dac_read_search $TR --nproc-per-node 4 --master-port $P $T > console.txt 2>&1 ;;
021) # torchrun --nnodes 2 c10d rendezvous, only one agent ever starts: join timeout
  SCEN=healthy timeout 150 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$P --rdzv-id job-7781 --rdzv-conf join_timeout=40 $T > console.txt 2>&1 ;;
022) # another process holds the master port; torchrun (static rendezvous) cannot bind its store
  $PY -c "import socket,time; s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('0.0.0.0', $P)); s.listen(); time.sleep(120)" & HOLD=$!
  sleep 1
  SCEN=healthy timeout 150 $TR --nnodes 1 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port $P $T > console.txt 2>&1
  kill $HOLD ;;
023) # srun 3 tasks but WORLD_SIZE hard-coded to 4 in the wrapper: store waits for a 4th client
  cat > $W/wrap.sh <<EOF
#!/bin/bash
export RANK=\$SLURM_PROCID WORLD_SIZE=4 LOCAL_RANK=\$SLURM_LOCALID
exec $PY $T
EOF
  chmod +x $W/wrap.sh
  SCEN=healthy PG_TIMEOUT=40 timeout 150 srun -K --label -n 3 -J pt-4n $W/wrap.sh > console.txt 2>&1 ;;
024) # sbatch --time=1; the run would need minutes: Slurm time limit
  cat > $W/job.sh <<EOF
#!/bin/bash
#SBATCH -J pt-long -n 2 --time=1 -o $R/slurm-%j.out
export PYTHONUNBUFFERED=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$P SCEN=healthy STEPS=2000 LOG_EVERY=10 OMP_NUM_THREADS=1
srun --label $PY $T
EOF
  sbatch --wait $W/job.sh > /dev/null 2>&1 ;;
025) # sbatch; scancel after ~15 steps
  cat > $W/job.sh <<EOF
#!/bin/bash
#SBATCH -J pt-base -n 3 -o $R/slurm-%j.out
export PYTHONUNBUFFERED=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$P SCEN=healthy STEPS=400 OMP_NUM_THREADS=1
srun $PY $T
EOF
  jid=$(sbatch --parsable $W/job.sh); wait_for "$R/slurm-$jid.out" "step 15/" 90; scancel $jid
  for _ in $(seq 1 60); do squeue -h -j $jid | grep -q . || break; sleep 1; done ;;
026) # two torchrun agents on localhost as two nodes (2+2); shape bug on rank 3; user hands node 1's --log-dir only
  SCEN=shape FAIL_RANK=3 FAIL_STEP=12 timeout 150 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port $P --log-dir $W/node0 --tee 3 $T > $W/node0.txt 2>&1 &
  A=$!
  SCEN=shape FAIL_RANK=3 FAIL_STEP=12 timeout 150 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port $P --log-dir $W/node1 --tee 3 $T > $W/node1.txt 2>&1
  wait $A; cp -r $W/node1 $R/node1-logs ;;
027) # mp.spawn 3 procs; float64 batch on rank 1
  SPAWN=3 SCEN=dtype FAIL_RANK=1 FAIL_STEP=5 PG_TIMEOUT=30 timeout 150 $PY $T > console.txt 2>&1 ;;
028) # torchrun 4 ranks; a DataLoader worker of rank 1 is SIGKILLed
  WORKERS=2 SCEN=worker_kill FAIL_RANK=1 STEPS=40 PG_TIMEOUT=30 timeout 150 $TR --nproc-per-node 4 --master-port $P $T > console.txt 2>&1 ;;
029) # HEALTHY (DETAIL segfaulted DDP on this torch build on a first attempt, so INFO): srun --label, TORCH_DISTRIBUTED_DEBUG/TORCH_CPP_LOG_LEVEL/NCCL_DEBUG chatter + warnings
  NCCL_DEBUG=INFO NCCL_SOCKET_IFNAME=lo TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=INFO SCEN=warnings STEPS=25 timeout 150 srun -K --label -n 3 -J pt-debug $PY $T > console.txt 2>&1 ;;
030) # srun --label 4 tasks; resume from a checkpoint written for a wider model
  $PY -c "
import torch, torch.nn as nn
m = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 1)); o = torch.optim.SGD(m.parameters(), lr=0.01, momentum=0.9)
torch.save({'model': m.state_dict(), 'optim': o.state_dict(), 'step': 1200}, '$W/step01200.pt')"
  RESUME=$W/step01200.pt SCEN=healthy PG_TIMEOUT=30 timeout 150 srun -K --label -n 4 -J pt-resume $PY $T > console.txt 2>&1 ;;
031) # torchrun 3 ranks; rank 0 opens files per step under prlimit --nofile=128
  SCEN=emfile FAIL_RANK=0 FAIL_STEP=3 PG_TIMEOUT=30 timeout 150 $TR --nproc-per-node 3 --master-port $P $T > console.txt 2>&1 ;;
032) # torchrun --redirects 3 --log-dir; rank 0's async checkpoint writer blocks (FIFO with no reader)
  mkfifo $W/fifo
  SCEN=ckpt_hang FIFO_PATH=$W/fifo FAIL_RANK=0 FAIL_STEP=10 CKPT_DIR=$W/ckpt CKPT_EVERY=10 STEPS=40 PG_TIMEOUT=30 timeout 170 $TR --nproc-per-node 3 --master-port $P --redirects 3 --log-dir $R/logs $T > console.txt 2>&1 ;;
033) # torchrun 4 ranks --log-dir --tee 3; rank 1 sleeps; user pastes a grep of the log dir
  SCEN=sleep FAIL_RANK=1 FAIL_STEP=9 PG_TIMEOUT=30 timeout 170 $TR --nproc-per-node 4 --master-port $P --log-dir $W/logs --tee 3 $T > $W/console.txt 2>&1
  (cd $W && grep -rn -iE "error|timeout|exception|fail" logs) > grep.txt ;;
034) # torchrun --redirects 3 --log-dir, 4 ranks; rank 2 kill -9 from outside; paste = launcher console + rank 0's files
  SCEN=healthy STEPS=60 PG_TIMEOUT=30 timeout 150 $TR --nproc-per-node 4 --master-port $P --redirects 3 --log-dir $W/logs $T > $W/console.txt 2>&1 &
  A=$!; wait_for "$W/logs" "step 12/" 90; kill -9 $(pid_of RANK 2); wait $A
  cp $W/console.txt launcher.txt; mkdir -p rank_logs; cp -r $W/logs/*/attempt_0/0 rank_logs/ ;;
035) # HEALTHY: torchrun 4 ranks; loss spike at step 14 that recovers
  SCEN=spike FAIL_STEP=14 STEPS=40 timeout 150 $TR --nproc-per-node 4 --master-port $P $T > console.txt 2>&1 ;;
036) # HEALTHY: torchrun 3 ranks; eval-shard fetch fails, retried, falls back (tracebacks logged)
  SCEN=retry FAIL_RANK=1 FAIL_STEP=10 STEPS=30 timeout 150 $TR --nproc-per-node 3 --master-port $P $T > console.txt 2>&1 ;;
037) # HEALTHY: sbatch, srun --label 2 tasks; loss-scaler overflow messages at warm-up
  cat > $W/job.sh <<EOF
#!/bin/bash
#SBATCH -J pt-amp -n 2 -o $R/slurm-%j.out
export PYTHONUNBUFFERED=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$P SCEN=healthy_overflow STEPS=30 OMP_NUM_THREADS=1
echo "SLURM_JOB_ID=\$SLURM_JOB_ID nodes=\$SLURM_JOB_NODELIST"
srun --label $PY $T
echo "done rc=\$?"
EOF
  sbatch --wait $W/job.sh > /dev/null 2>&1 ;;
038) # HEALTHY: two torchrun agents (2+2), node 1 starts 12 s late; user hands both consoles
  SCEN=healthy STEPS=25 timeout 150 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$P --rdzv-id exp-42 $T > node-a.txt 2>&1 &
  A=$!; sleep 12
  SCEN=healthy STEPS=25 timeout 150 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$P --rdzv-id exp-42 $T > node-b.txt 2>&1
  wait $A ;;
039) # HEALTHY: mp.spawn 3 procs; a metrics callback raises on rank 2, caught and logged with traceback
  SPAWN=3 SCEN=callback_caught FAIL_RANK=2 FAIL_STEP=7 STEPS=25 timeout 150 $PY $T > console.txt 2>&1 ;;
040) # HEALTHY: sbatch, srun -o %x-%j-%t.out per-task files, 3 tasks, checkpoints every 10 steps
  cat > $W/job.sh <<EOF
#!/bin/bash
#SBATCH -J pt-ckpt -n 3 -o $R/%x-%j.out
export PYTHONUNBUFFERED=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$P SCEN=healthy STEPS=30 CKPT_DIR=$W/ckpt CKPT_EVERY=10 OMP_NUM_THREADS=1
srun -o "$R/%x-%j-%t.out" $PY $T
EOF
  sbatch --wait $W/job.sh > /dev/null 2>&1 ;;
*) echo "unknown run $N"; exit 1 ;;
esac
echo "run $N done"; ls -R "$R" | head -30
