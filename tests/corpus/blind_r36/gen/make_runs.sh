#!/usr/bin/env bash
# Regenerates every run: bash make_runs.sh [NNN ...]   (needs root, the private Slurm for srun/sbatch runs)
set -u
G=/work/blind/r36/set/gen; S=/work/blind/r36/set/runs; WK=/work/blind/r36/work
PY=/work/blind/venv/bin/python; TR=/work/blind/venv/bin/torchrun
source /work/blind/slurm/env.sh
export PATH=/work/blind/venv/bin:$PATH
prep() { N=$1; W=$WK/$N; R=$S/$N; rm -rf "$W" "$R"; mkdir -p "$W" "$R"; cd "$W"; PORT=$((44000 + 10#$N * 10)); }
data() { $PY $G/make_data.py "$W/data" "$1" >/dev/null; }
cfg() { echo "$1" > "$W/config.json"; }
trn() { timeout 170 $TR "$@"; }
sub_wait() { # sbatch then wait for the end
  local jid; jid=$(sbatch --parsable "$@"); while squeue -h -j "$jid" 2>/dev/null | grep -q .; do sleep 2; done; echo "$jid"; }

r001() { prep 001; data '{"world":4,"overrides":{"2":{"missing":[1]}}}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"print\",\"pg_timeout\":30}"
  trn --nproc-per-node 4 --master-port $PORT --tee 3 $G/train.py --config config.json > $R/console.log 2>&1; }

r002() { prep 002; data '{"world":4}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":40,\"step_sleep\":0.1,\"lr\":0.01,\"log_style\":\"json\",\"port\":$PORT,\"warnings\":[\"torch.utils._pytree._register_pytree_node is deprecated. Please use torch.utils._pytree.register_pytree_node instead.\"]}"
  timeout 170 srun -n 4 --label $PY $G/train.py --config config.json > $R/console.log 2>&1; }

r003() { prep 003; data '{"world":2,"overrides":{"1":{"huge":[1],"huge_rows":40000000}}}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":80,\"step_sleep\":0.1,\"preload\":true,\"log_style\":\"logging\",\"pg_timeout\":30}"
  CG=/sys/fs/cgroup/memory/blind003; mkdir -p $CG; echo 0 > $CG/memory.swappiness 2>/dev/null; echo 1400M > $CG/memory.limit_in_bytes
  bash -c "echo \$\$ > $CG/cgroup.procs; exec timeout 170 $TR --nproc-per-node 2 --master-port $PORT --log-dir $R/logs $G/train.py --config config.json" > $R/console.log 2>&1
  cat $CG/memory.oom_control > $W/oom_control.txt; rmdir $CG; }

r004() { prep 004; data '{"world":4,"overrides":{"3":{"fifo":[1]}}}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"logging\",\"pg_timeout\":20,\"port\":$PORT}"
  timeout 170 srun -n 4 --label -K $PY $G/train.py --config config.json > $R/console.log 2>&1; }

r005() { prep 005; data '{"world":3,"format":"native","rows":400,"overrides":{"1":{"bad_index_at":200}}}'
  cfg "{\"data_dir\":\"$W/data\",\"format\":\"native\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"print\",\"pg_timeout\":30}"
  trn --nproc-per-node 3 --master-port $PORT --tee 3 $G/train.py --config config.json > $R/console.log 2>&1; }

r006() { prep 006; data '{"world":2}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.08,\"lr\":0.01,\"log_style\":\"bar\",\"port\":$PORT}"
  timeout 170 $PY $G/train.py --config config.json --spawn 2 > $R/console.log 2>&1; }

r007() { prep 007; data '{"world":3,"overrides":{"2":{"parts":1}}}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":1000,\"epochs\":1,\"loop_data\":false,\"final_barrier\":false,\"step_sleep\":0.08,\"log_style\":\"trainer\",\"pg_timeout\":30,\"port\":$PORT}"
  timeout 170 $PY $G/train.py --config config.json --spawn 3 > $R/console.log 2>&1; }

r008() { prep 008; data '{"world":4}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":40,\"step_sleep\":0.05,\"log_style\":\"logging\",\"pg_timeout\":30,\"extra_metrics\":{\"1\":[\"tokens_dropped\"]}}"
  TORCH_DISTRIBUTED_DEBUG=INFO trn --nproc-per-node 4 --master-port $PORT --log-dir $R/logs --tee 3 $G/train.py --config config.json > $R/console.log 2>&1; }

r009() { prep 009; data '{"world":4,"format":"csv","overrides":{"3":{"bad_bytes_at":[1,5]}}}'
  cfg "{\"data_dir\":\"$W/data\",\"format\":\"csv\",\"steps\":80,\"step_sleep\":0.1,\"log_style\":\"logging\",\"pg_timeout\":30,\"port\":$PORT}"
  mkdir -p $R/task-logs; timeout 170 srun -n 4 -K -o $R/task-logs/train-%j-%t.out $PY $G/train.py --config config.json; }

r010() { prep 010; data '{"world":4,"overrides":{"3":{"inf_at":[0,100]}}}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"json\",\"pg_timeout\":30,\"port\":$PORT}"
  timeout 170 srun -n 4 --label -K $PY $G/train.py --config config.json > $R/console.log 2>&1; }

r011() { prep 011; data '{"world":2}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":200,\"step_sleep\":0.05,\"optimizer\":\"sgd\",\"lr\":0.4,\"lr_schedule\":\"warmup_const\",\"warmup\":40,\"log_style\":\"trainer\",\"pg_timeout\":30,\"port\":$PORT}"
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J regress-mlp
#SBATCH -n 2
#SBATCH -o $R/slurm-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date)"
srun $PY $G/train.py --config $W/config.json
JOB
  sub_wait job.sh; }

r012() { prep 012; data '{"world":2}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":120,\"step_sleep\":0.05,\"optimizer\":\"sgd\",\"lr\":0.3,\"lr_schedule\":\"warmup_const\",\"warmup\":40,\"log_every\":2,\"log_style\":\"logging\",\"pg_timeout\":30}"
  trn --nproc-per-node 2 --master-port $PORT --tee 3 $G/train.py --config config.json > $R/console.log 2>&1; }

r013() { prep 013; data '{"world":2}'
  $PY -c "
import torch,sys; sys.path.insert(0,'$G'); from train import MLP
m=MLP(16,128); torch.save({'step':400,'model':m.state_dict()}, '$W/step_000400.pt')"
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"logging\",\"pg_timeout\":30,\"resume_from\":\"$W/step_000400.pt\",\"port\":$PORT}"
  timeout 170 $PY $G/train.py --config config.json --spawn 2 > $R/console.log 2>&1; }

r014() { prep 014; data '{"world":2}'; mkdir -p $W/ckpt
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"lr\":0.01,\"log_style\":\"trainer\",\"ckpt_dir\":\"$W/ckpt\",\"ckpt_every\":20,\"warnings\":[\"Detected call of lr_scheduler.step() before optimizer.step().\"]}"
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J regress-mlp
#SBATCH -n 1
#SBATCH -c 2
#SBATCH -o $R/slurm-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date)"
$TR --nproc-per-node 2 --master-port $PORT $G/train.py --config $W/config.json
echo "done \$(date)"
JOB
  sub_wait job.sh; }

r015() { prep 015; data '{"world":2}'
  $PY -c "
import torch,sys; sys.path.insert(0,'$G'); from train import MLP
m=MLP(16,64); torch.save({'step':400,'model':m.state_dict()}, '$W/step_000400.pt')"
  truncate -s 9000 $W/step_000400.pt
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"print\",\"pg_timeout\":30,\"resume_from\":\"$W/step_000400.pt\"}"
  trn --nproc-per-node 2 --master-port $PORT --tee 3 $G/train.py --config config.json > $R/console.log 2>&1; }

r016() { prep 016; data '{"world":4}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"logging\"}"
  trn --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$PORT --rdzv-id job16 \
      --rdzv-conf join_timeout=25 --max-restarts 0 $G/train.py --config config.json > $R/console.log 2>&1; }

r017() { prep 017; data '{"world":2}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"print\"}"
  $PY -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',$PORT)); s.listen(); time.sleep(60)" & HOLD=$!
  sleep 1
  trn --nnodes 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port $PORT $G/train.py --config config.json > $R/console.log 2>&1
  kill $HOLD; }

r018() { prep 018; data '{"world":2}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":5000,\"step_sleep\":0.1,\"log_every\":10,\"log_style\":\"logging\",\"port\":$PORT}"
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J regress-mlp
#SBATCH -n 2
#SBATCH --time=1
#SBATCH -o $R/slurm-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date)"
srun $PY $G/train.py --config $W/config.json
JOB
  sub_wait job.sh; }

r019() { prep 019; data '{"world":3,"overrides":{"1":{"dtype":"float64"}}}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"print\",\"pg_timeout\":30,\"port\":$PORT}"
  timeout 170 $PY $G/train.py --config config.json --spawn 3 > $R/console.log 2>&1; }

r020() { prep 020; data '{"world":4}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.05,\"lr\":0.01,\"fp16\":true,\"init_scale\":16777216,\"log_every\":5,\"log_style\":\"logging\"}"
  for n in 0 1; do trn --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$PORT --rdzv-id job20 \
      --max-restarts 0 --tee 3 $G/train.py --config config.json > $R/node-$((n+1)).log 2>&1 & done; wait; }

r021() { prep 021; data '{"world":4,"overrides":{"3":{"dim":20}}}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"logging\",\"pg_timeout\":30,\"port\":$PORT}"
  timeout 170 srun -n 4 --label -K $PY $G/train.py --config config.json > $R/console.log 2>&1; }

r022() { prep 022; data '{"world":2,"rows":2000}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":150,\"step_sleep\":0.1,\"num_workers\":2,\"log_style\":\"logging\",\"pg_timeout\":30}"
  ( sleep 9; for p in $(pgrep -f "train.py --config config.json"); do
      if tr '\0' '\n' < /proc/$p/environ 2>/dev/null | grep -qx RANK=1; then
        c=$(pgrep -P $p | head -1); [ -n "$c" ] && kill -9 $c && echo "watcher: SIGKILL worker $c of pid $p" > $W/watcher.txt; fi; done ) &
  trn --nproc-per-node 2 --master-port $PORT --log-dir $R/logs $G/train.py --config config.json > $R/console.log 2>&1; wait; }

r023() { prep 023; data '{"world":3,"rows":16,"parts":4,"overrides":{"2":{"parts":200}}}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"open_all_parts\":true,\"log_style\":\"logging\",\"pg_timeout\":30,\"port\":$PORT}"
  mkdir -p $R/out; timeout 170 srun -n 3 -K -o $R/out/task-%t.log bash -c "ulimit -n 128; exec $PY $G/train.py --config config.json"; }

r024() { prep 024; data '{"world":2}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"optimizer\":\"fused_adam\",\"log_style\":\"print\",\"port\":$PORT}"
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J regress-mlp
#SBATCH -n 2
#SBATCH -o $R/slurm-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date)"
srun $PY $G/train.py --config $W/config.json
JOB
  sub_wait job.sh; }

r025() { prep 025; data '{"world":2}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"logging\",\"pg_timeout\":30,\"cache_dir\":\"$W\",\"init_from_url\":\"http://127.0.0.1:44999/models/mlp-16x64/resolve/main/init.pt\"}"
  trn --nproc-per-node 2 --master-port $PORT --tee 3 $G/train.py --config config.json > $R/console.log 2>&1; }

r026() { prep 026; data '{"world":4}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"logging\",\"pg_timeout\":30,\"lr_mult\":{\"0\":1.0,\"1\":1.0,\"2\":1.0}}"
  for n in 0 1; do trn --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$PORT --rdzv-id job26 \
      --node-rank $n --max-restarts 0 --tee 3 $G/train.py --config config.json > $R/node-$((n+1)).log 2>&1 & sleep 1; done; wait; }

r027() { prep 027; data '{"world":3}'; mkdir -p $W/ckpt; mkfifo $W/ckpt/step_000030.pt
  cfg "{\"data_dir\":\"$W/data\",\"steps\":80,\"step_sleep\":0.1,\"log_style\":\"logging\",\"pg_timeout\":20,\"ckpt_dir\":\"$W/ckpt\",\"ckpt_every\":15}"
  trn --nproc-per-node 3 --master-port $PORT --tee 3 $G/train.py --config config.json > $R/console.log 2>&1; }

r028() { prep 028; data '{"world":2}'; mkdir -p $W/ckpt; mkfifo $W/ckpt/step_000015.pt
  cfg "{\"data_dir\":\"$W/data\",\"steps\":80,\"step_sleep\":0.1,\"log_style\":\"trainer\",\"pg_timeout\":60,\"ckpt_dir\":\"$W/ckpt\",\"ckpt_every\":15,\"save_timeout\":10,\"port\":$PORT}"
  timeout 170 srun -n 2 --label -K $PY $G/train.py --config config.json > $R/console.log 2>&1; }

r029() { prep 029; data '{"world":2}'; mkdir -p $W/ckpt; mount -t tmpfs -o size=700k tmpfs $W/ckpt
  cfg "{\"data_dir\":\"$W/data\",\"steps\":80,\"step_sleep\":0.1,\"hidden\":192,\"log_style\":\"json\",\"pg_timeout\":30,\"ckpt_dir\":\"$W/ckpt\",\"ckpt_every\":10,\"port\":$PORT}"
  timeout 170 $PY $G/train.py --config config.json --spawn 2 > $R/console.log 2>&1; df -h $W/ckpt > $W/df.txt; umount $W/ckpt; }

r030() { prep 030; data '{"world":2}'; mkdir -p $W/ckpt; mount -t tmpfs -o ro,size=1m tmpfs $W/ckpt
  cfg "{\"data_dir\":\"$W/data\",\"steps\":60,\"step_sleep\":0.1,\"log_style\":\"print\",\"pg_timeout\":30,\"ckpt_dir\":\"$W/ckpt\",\"ckpt_every\":20}"
  trn --nproc-per-node 2 --master-port $PORT --log-dir $R/logs --tee 3 $G/train.py --config config.json > $R/console.log 2>&1; umount $W/ckpt; }

r031() { prep 031; data '{"world":2,"scale":10000}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":80,\"step_sleep\":0.05,\"fp16\":true,\"fp16_inputs\":true,\"log_style\":\"logging\",\"pg_timeout\":30}"
  trn --nproc-per-node 2 --master-port $PORT --tee 3 $G/train.py --config config.json > $R/console.log 2>&1; }

r032() { prep 032; data '{"world":4}'; mkdir -p $W/ckpt
  cfg "{\"data_dir\":\"$W/data\",\"steps\":50,\"step_sleep\":0.05,\"lr\":0.01,\"log_style\":\"print\",\"ckpt_dir\":\"$W/ckpt\",\"ckpt_every\":25,\"warnings\":[\"TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage class.\"]}"
  trn --nproc-per-node 4 --master-port $PORT --log-dir $R/logs $G/train.py --config config.json > $R/console.log 2>&1; }

r033() { prep 033; data '{"world":2}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":5000,\"step_sleep\":0.1,\"log_every\":10,\"log_style\":\"json\",\"port\":$PORT}"
  cat > job.sh <<JOB
#!/bin/bash
#SBATCH -J regress-mlp
#SBATCH -n 2
#SBATCH -o $R/slurm-%j.out
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST started \$(date)"
srun $PY $G/train.py --config $W/config.json
JOB
  jid=$(sbatch --parsable job.sh); sleep 20; scancel $jid; while squeue -h -j $jid | grep -q .; do sleep 2; done; }

r034() { prep 034; data '{"world":3,"format":"csv"}'
  cfg "{\"data_dir\":\"$W/data\",\"format\":\"csv\",\"steps\":50,\"step_sleep\":0.05,\"lr\":0.01,\"log_style\":\"logging\",\"port\":$PORT}"
  mkdir -p $R/task-logs; timeout 170 srun -n 3 -o $R/task-logs/train-%j-%t.out $PY $G/train.py --config config.json; }

r035() { prep 035; data '{"world":4}'
  cfg "{\"data_dir\":\"$W/data\",\"steps\":40,\"step_sleep\":0.1,\"lr\":0.01,\"log_style\":\"json\",\"port\":$PORT,\"warnings\":[\"torch.utils._pytree._register_pytree_node is deprecated. Please use torch.utils._pytree.register_pytree_node instead.\"]}"
  timeout 170 srun -n 4 --label $PY $G/train.py --config config.json > $R/console.log 2>&1; }

for n in "$@"; do echo "=== $n $(date +%T)"; r$n; echo "=== $n rc=$? $(date +%T)"; done
