#!/usr/bin/env bash
# usage: run.sh NNN   -> produces /work/blind/r30/runs/NNN
set -u
export OMP_NUM_THREADS=1 PATH=/work/blind/venv/bin:$PATH SLURM_CONF=/work/blind/r30/slurm/slurm.conf
G=/work/blind/r30/gen
T="$G/train.py"
ID=$1
R=/work/blind/r30/runs/$ID
W=/work/blind/r30/work/$ID   # scratch that is not handed over
rm -rf "$R" "$W"; mkdir -p "$R" "$W"
PORT=$((36100 + 10#$ID))
cd "$R"
TR="torchrun --nproc_per_node=4 --master_addr=127.0.0.1 --master_port=$PORT"
PY=/work/blind/venv/bin/python

sbatch_wait() {  # sbatch_wait SCRIPT -> waits for the job to end, prints job id
  local j; j=$(sbatch --parsable "$1"); echo "$j" > "$W/jobid"
  while squeue -h -j "$j" 2>/dev/null | grep -q .; do sleep 2; done
  echo "$j"
}

case $ID in
# ---------------- healthy ----------------
001) # long noisy run, config dump with timeout/error words, whole console
  $TR $T --steps 2600 --bs 8 --print-config --eval-every 250 > console.log 2>&1 ;;
002) # loss spike that recovers, torchrun --log-dir --tee, per-rank dir
  $TR --log-dir "$R/logs" --tee 3 $T --steps 700 --opt adam --lr 0.003 --label-noise 0.05 --log-all \
      --fault spike --fault-step 300 > "$W/console.log" 2>&1 ;;
003) # overfitting: eval loss rises; mp.spawn
  $PY $T --spawn 2 --port $PORT --steps 1500 --n 192 --hidden 256 --opt adam --lr 0.003 --label-noise 0.3 \
      --eval-every 50 --log-every 10 > console.log 2>&1 ;;
004) # GradScaler overflow steps that skip and recover; sbatch + srun --label
  cat > job.sbatch <<EOF
#!/bin/bash
#SBATCH -J amp-mlp -n 4 -o $R/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
srun --label $PY $T --steps 800 --amp --init-scale 3e38 --growth-interval 60 --log-every 5
EOF
  sbatch_wait job.sbatch >/dev/null; mv job.sbatch "$W/" ;;
005) # NaN in one step on rank 2, skipped on all ranks; deprecation warnings
  $TR $T --steps 600 --log-all --log-every 5 --fault nan_skip --fault-rank 2 --fault-step 217 > console.log 2>&1 ;;
006) # caught + logged exceptions (missing optional file, retried connection), TORCH_DISTRIBUTED_DEBUG=INFO
  TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO $TR $T --steps 500 --log-every 2 --fault caught \
      --ckpt-dir "$W" > console.log 2>&1 ;;
007) # warnings + DEBUG chatter; user hands the last 200 lines
  TORCH_DISTRIBUTED_DEBUG=DETAIL $TR $T --steps 900 --fault warnings --workers 2 > "$W/console.log" 2>&1
  tail -n 200 "$W/console.log" > last200.log ;;
008) # torchrun restart after a transient fault (shard not yet there), then completes
  $PY $G/mkshards.py "$W/data" 4 1
  ( for i in $(seq 1 120); do grep -q "FileNotFoundError" "$R/console.log" 2>/dev/null && break; sleep 0.5; done
    $PY $G/mkshards.py "$W/data" 4 ) &
  $TR --max-restarts=1 --monitor-interval=1 $T --steps 400 --data-dir "$W/data" --log-every 2 > console.log 2>&1
  wait ;;
009) # checkpointed segment, then a resumed segment; a directory of two console files
  mkdir -p logs
  $TR $T --steps 300 --ckpt-dir "$W" --ckpt-every 100 --log-every 2 > logs/train_part1.log 2>&1
  $TR $T --steps 600 --ckpt-dir "$W" --ckpt-every 100 --resume "$W/ckpt_step200.pt" --log-every 2 > logs/train_part2.log 2>&1 ;;
010) # slurm job whose srun step prints warnings (no --label), completes
  cat > job.sbatch <<EOF
#!/bin/bash
#SBATCH -J mlp-warn -n 3 -o $R/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1 TORCH_DISTRIBUTED_DEBUG=INFO
srun --kill-on-bad-exit=1 $PY $T --steps 700 --fault warnings --workers 2 --log-every 2 --print-config
EOF
  sbatch_wait job.sbatch >/dev/null; mv job.sbatch "$W/" ;;
011) # error words in metrics, per-rank logs as a tar.gz
  $TR --log-dir "$W/tl" --tee 3 $T --steps 800 --log-all --log-every 4 --print-config > "$W/console.log" 2>&1
  tar -C "$W" -czf run_logs.tar.gz tl ;;
012) # two "nodes" (two torchrun agents), long; one log per node
  mkdir -p logs
  RDZ="--nnodes=2 --nproc_per_node=2 --rdzv_backend=c10d --rdzv_endpoint=127.0.0.1:$PORT --rdzv_id=j12"
  torchrun $RDZ --node_rank=0 $T --steps 2000 --bs 4 --log-every 1 > logs/node0.log 2>&1 &
  torchrun $RDZ --node_rank=1 $T --steps 2000 --bs 4 --log-every 1 > logs/node1.log 2>&1
  wait ;;
# ---------------- failing ----------------
013) # rank 2 blocks on a read (FIFO nobody writes); the others hit the gloo timeout
  $TR $T --steps 500 --log-all --log-every 5 --fault hang_read --fault-rank 2 --fault-step 133 --ckpt-dir "$W" --pg-timeout 30 > console.log 2>&1 ;;
014) # NaN detected and raised on rank 3; per-rank log dir
  $TR --log-dir "$R/logs" $T --steps 500 --log-all --log-every 5 --fault nan_raise --fault-rank 3 --fault-step 181 > "$W/console.log" 2>&1 ;;
015) # divergence that does not recover; the run ends normally
  $TR $T --steps 900 --opt adam --lr 0.003 --label-noise 0.05 --log-every 2 --fault diverge --fault-step 400 > console.log 2>&1 ;;
016) # SIGKILL of rank 1 from outside
  ( for i in $(seq 1 240); do [ -f "$W/pids/reached_1" ] && break; sleep 0.25; done; kill -9 "$(cat $W/pids/rank1.pid)" ) &
  $TR $T --steps 100000 --log-every 10 --fault sigkill_wait --fault-rank 1 --fault-step 300 --pidfile-dir "$W/pids" > console.log 2>&1
  wait ;;
017) # real cgroup memory limit: rank 2 leaks host memory until the kernel OOM-kills it
  CG=/sys/fs/cgroup/memory/r30_017; mkdir -p $CG; echo 2200M > $CG/memory.limit_in_bytes
  bash -c "echo \$\$ > $CG/cgroup.procs; exec $TR $T --steps 2000 --log-every 5 --fault leak --fault-rank 2 --fault-step 150 --step-sleep 0.05" > console.log 2>&1
  grep -E "oom_kill|under_oom" $CG/memory.oom_control > "$W/oom_control.txt"; cat $CG/memory.failcnt >> "$W/oom_control.txt"; rmdir $CG ;;
018) # RLIMIT_AS (ulimit -v) on rank 1 -> CPU allocator failure; mp.spawn
  $PY $T --spawn 3 --port $PORT --steps 500 --log-every 5 --fault oom --fault-rank 1 --fault-step 140 > console.log 2>&1 ;;
019) # checkpoint dir is a 2M tmpfs that fills up; last ~200 lines handed
  mkdir -p "$W/ckpt"; mount -t tmpfs -o size=2M tmpfs "$W/ckpt"
  $TR $T --steps 500 --log-every 1 --ckpt-dir "$W/ckpt" --ckpt-every 40 > "$W/console.log" 2>&1
  df -k "$W/ckpt" > "$W/df.txt"; umount "$W/ckpt"
  tail -n 200 "$W/console.log" > console_tail.log ;;
020) # checkpoint dir mounted read-only; sbatch + srun --label
  mkdir -p "$W/ckpt"; mount -t tmpfs -o size=50M,ro tmpfs "$W/ckpt"
  cat > job.sbatch <<EOF
#!/bin/bash
#SBATCH -J mlp-ckpt -n 4 -o $R/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
srun --label $PY $T --steps 500 --log-every 5 --ckpt-dir $W/ckpt --ckpt-every 150 --pg-timeout 30
EOF
  sbatch_wait job.sbatch >/dev/null; mv job.sbatch "$W/"; umount "$W/ckpt" ;;
021) # exception inside a DataLoader worker on rank 1 (corrupt record)
  $TR $T --steps 500 --log-every 5 --workers 2 --fault dl_exc --fault-rank 1 --fault-step 90 > console.log 2>&1 ;;
022) # a DataLoader worker of rank 2 is SIGKILLed
  $TR --log-dir "$W/tl" --tee 3 $T --steps 600 --log-every 5 --workers 2 --fault dl_kill --fault-rank 2 --fault-step 120 > console.log 2>&1 ;;
023) # rank 3 has a short shard, leaves its loop and exits 0; the others are stranded
  $TR $T --steps 2000 --log-all --log-every 10 --fault uneven --fault-rank 3 > console.log 2>&1 ;;
024) # mismatched collective on rank 1 (metrics all_reduce of a different size), DEBUG=DETAIL
  TORCH_DISTRIBUTED_DEBUG=DETAIL $TR $T --steps 500 --log-every 5 --fault mismatch --fault-rank 1 --fault-step 77 > console.log 2>&1 ;;
025) # hang (rank 0 blocked reading) with a long pg timeout; Slurm time limit ends it
  cat > job.sbatch <<EOF
#!/bin/bash
#SBATCH -J mlp-hang -n 4 -t 1 -o $R/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
srun $PY $T --steps 5000 --log-every 5 --fault hang_read --fault-rank 0 --fault-step 200 --ckpt-dir $W --pg-timeout 900
EOF
  sbatch_wait job.sbatch >/dev/null; mv job.sbatch "$W/" ;;
026) # healthy-looking job cancelled with scancel mid-run
  cat > job.sbatch <<EOF
#!/bin/bash
#SBATCH -J mlp-long -n 2 -o $R/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
srun --label $PY $T --steps 100000 --log-every 20 --step-sleep 0.01
EOF
  j=$(sbatch --parsable job.sbatch); sleep 25; scancel "$j"
  while squeue -h -j "$j" | grep -q .; do sleep 1; done; mv job.sbatch "$W/" ;;
027) # fp16 loss scale collapses: rank 1's data overflows fp16 every step
  $TR $T --steps 600 --log-all --log-every 5 --amp --fault scaler_collapse --fault-rank 1 --fault-step 150 > console.log 2>&1 ;;
028) # KeyError on rank 2; torchrun log dir as tar.gz
  $TR --log-dir "$W/tl" --tee 3 $T --steps 500 --log-every 5 --fault exc_other --fault-rank 2 --fault-step 88 > "$W/console.log" 2>&1
  tar -C "$W" -czf logs.tar.gz tl ;;
029) # shape bug on rank 0; srun without --label
  cat > job.sbatch <<EOF
#!/bin/bash
#SBATCH -J mlp-shape -n 4 -o $R/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
srun $PY $T --steps 500 --log-every 5 --fault shape --fault-rank 0 --fault-step 61
EOF
  sbatch_wait job.sbatch >/dev/null; mv job.sbatch "$W/" ;;
030) # float64 batch on rank 1 -> dtype error
  $TR $T --steps 500 --log-every 5 --log-all --fault dtype --fault-rank 1 --fault-step 45 > console.log 2>&1 ;;
031) # resume from a truncated (torn) checkpoint
  $TR $T --steps 200 --ckpt-dir "$W" --ckpt-every 100 --log-every 5 > "$W/part1.log" 2>&1
  sz=$(stat -c %s "$W/ckpt_step100.pt"); head -c $((sz / 2)) "$W/ckpt_step100.pt" > "$W/ckpt_torn.pt"
  $TR $T --steps 400 --resume "$W/ckpt_torn.pt" --log-every 5 > console.log 2>&1 ;;
032) # resume with a model of another width
  $TR $T --steps 200 --ckpt-dir "$W" --ckpt-every 100 --log-every 5 > "$W/part1.log" 2>&1
  $TR $T --steps 400 --hidden 96 --resume "$W/ckpt_step100.pt" --log-every 5 > console.log 2>&1 ;;
033) # rank 3's data shard missing
  $PY $G/mkshards.py "$W/data" 4 3
  $TR $T --steps 300 --data-dir "$W/data" --log-all > console.log 2>&1 ;;
034) # rank 1 runs out of file descriptors (limit 64) opening every index file
  $PY $G/mkshards.py "$W/data" 4; for i in $(seq 1 120); do echo $i > "$W/data/index_$i.idx"; done
  $TR $T --steps 300 --data-dir "$W/data" --fault emfile --fault-rank 1 --log-all > console.log 2>&1 ;;
035) # a slow job that needs more than its 1 min time limit (no hang)
  cat > job.sbatch <<EOF
#!/bin/bash
#SBATCH -J mlp-slow -n 2 -t 1 -o $R/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
srun --label $PY $T --steps 100000 --log-every 10 --step-sleep 0.02 --ckpt-dir $W --ckpt-every 1000
EOF
  sbatch_wait job.sbatch >/dev/null; mv job.sbatch "$W/" ;;
036) # divergence, then the user scancels the job
  cat > job.sbatch <<EOF
#!/bin/bash
#SBATCH -J mlp-div -n 2 -o $R/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=$PORT OMP_NUM_THREADS=1
srun --label $PY $T --steps 100000 --opt adam --lr 0.003 --label-noise 0.05 --log-every 5 --fault diverge --fault-step 600 --step-sleep 0.005
EOF
  j=$(sbatch --parsable job.sbatch); sleep 50; scancel "$j"
  while squeue -h -j "$j" | grep -q .; do sleep 1; done; mv job.sbatch "$W/" ;;
037) # torchrun restart (c10d rendezvous) after a transient fault (shard not yet there), then completes
  $PY $G/mkshards.py "$W/data" 4 1
  ( for i in $(seq 1 120); do grep -q "FileNotFoundError" "$R/console.log" 2>/dev/null && break; sleep 0.5; done
    $PY $G/mkshards.py "$W/data" 4 ) &
  torchrun --nnodes=1 --nproc_per_node=4 --rdzv_backend=c10d --rdzv_endpoint=127.0.0.1:$PORT --max-restarts=2 --monitor-interval=1 \
      $T --steps 400 --data-dir "$W/data" --log-every 2 > console.log 2>&1
  wait ;;
038) # deprecation/user warnings + TORCH_DISTRIBUTED_DEBUG=INFO, dataloader workers; user hands the last 200 lines
  TORCH_DISTRIBUTED_DEBUG=INFO $TR $T --steps 900 --fault warnings --workers 2 > "$W/console.log" 2>&1
  tail -n 200 "$W/console.log" > last200.log ;;
esac
echo "run $ID done rc=$?" >> /work/blind/r30/gen/run_log.txt
