#!/bin/bash
# Makes the r62 runs. Usage: bash runs.sh NNN [NNN...]   (each run writes runs/NNN; plan labels go to gen/plan.jsonl)
source /work/blind/slurm62/env.sh
PY=/work/blind/torchenv/bin/python; TR=/work/blind/torchenv/bin/torchrun
G=/work/blind/r62/gen; T=$G/train.py; R=/work/blind/r62/runs
CGROOT=/sys/fs/cgroup/memory$(awk -F: '$2=="memory"{print $3}' /proc/self/cgroup)
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
plan() { echo "{\"run\": \"$1\", \"class\": \"$2\", \"initiating_rank\": $3, \"plan\": \"$4\"}" >> $G/plan.jsonl; }
mkcg() { local c=$CGROOT/r62oom_$1; mkdir -p $c; echo $2 > $c/memory.limit_in_bytes; echo $c; }
sb() { local n=$1; shift; mkdir -p $R/$n; cat > $G/sbatch/$n.sbatch; local j=$(cd $R/$n && sbatch --parsable "$@" $G/sbatch/$n.sbatch)
  while squeue -h -j $j 2>/dev/null | grep -q .; do sleep 1; done; sleep 1; }
pt() { echo $((29700 + 10#$1)); }

r001() { plan 001 nccl_timeout 2 "srun -l --kill-on-bad-exit, rank 2 sleeps silently at step 6"
sb 001 -J ddp-sleep -n 4 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 001) FAULT=sleep FAULT_RANK=2 FAULT_STEP=6 TO=12 FMT=plain STEPS=20
srun -l --kill-on-bad-exit=1 $PY $T
X
}
r002() { plan 002 nccl_timeout 1 "srun -o per-rank files, rank 1 self-deadlocks on a lock at step 3, others gloo-timeout, job ends at time limit"
sb 002 -J llm-pretrain -n 3 --time=1 <<X
#!/bin/bash
export MASTER_PORT=$(pt 002) FAULT=lock FAULT_RANK=1 FAULT_STEP=3 TO=12 FMT=logging STEPS=30
echo "job \$SLURM_JOB_ID starting on \$SLURM_NODELIST with \$SLURM_NTASKS tasks"
srun -o %x-%j-%t.out $PY $T
echo "srun exited with \$?"
X
}
r003() { plan 003 host_oom_killed 3 "srun -l --kill-on-bad-exit, rank 3 put into a 300MB memory cgroup, kernel OOM-kills it (SIGKILL) mid-training"
local cg=$(mkcg 003 300M)
sb 003 -J ddp-oom -n 4 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 003) FAULT=cgroup_oom FAULT_RANK=3 FAULT_STEP=7 TO=15 FMT=json STEPS=20 OOM_CG=$cg
srun -l --kill-on-bad-exit=1 $PY $T
X
}
r004() { plan 004 nccl_remote_peer_exited 1 "srun -l, rank 1 shard shorter (uneven data), finishes and exits 0; others lose peer"
sb 004 -J uneven -n 3 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 004) FAULT=uneven FAULT_RANK=1 FAULT_STEP=9 TO=20 FMT=logging_rank STEPS=16
srun -l $PY $T
X
}
r005() { plan 005 collective_mismatch 3 "srun -l, TORCH_DISTRIBUTED_DEBUG=DETAIL, rank 3 issues an extra all_reduce of a different shape at step 4"
sb 005 -J mismatch -n 4 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 005) FAULT=mismatch FAULT_RANK=3 FAULT_STEP=4 TO=15 FMT=prefix STEPS=12 TORCH_DISTRIBUTED_DEBUG=DETAIL
srun -l $PY $T
X
}
r006() { plan 006 shape_mismatch 1 "srun --kill-on-bad-exit (no -l), shape error in evaluation on rank 1"
sb 006 -J eval-shape -n 2 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 006) FAULT=shape FAULT_RANK=1 FAULT_STEP=9 FAULT_PHASE=eval EVAL_EVERY=5 TO=15 FMT=prefix STEPS=20
srun --kill-on-bad-exit=1 $PY $T
X
}
r007() { plan 007 slurm_time_limit null "sbatch --time=1, healthy training just too long"
sb 007 -J long-train -n 2 --time=1 <<X
#!/bin/bash
export MASTER_PORT=$(pt 007) FMT=prefix STEPS=100000 STEP_SLEEP=0.5 TO=30
srun -l $PY $T
X
}
r008() { plan 008 preemption_sigterm null "scancel mid-training (job asked to stop)"
mkdir -p $R/008; cat > $G/sbatch/008.sbatch <<X
#!/bin/bash
export MASTER_PORT=$(pt 008) FMT=logging_rank STEPS=100000 STEP_SLEEP=0.3 TO=30
srun $PY $T
X
local j=$(cd $R/008 && sbatch --parsable -J finetune -n 2 $G/sbatch/008.sbatch); sleep 25; scancel $j
while squeue -h -j $j 2>/dev/null | grep -q .; do sleep 2; done; sleep 2
}
r009() { plan 009 dataloader_worker_killed 2 "srun -l, DataLoader worker of rank 2 dies of SIGBUS (shm file truncated under mmap)"
sb 009 -J dl-bus -n 4 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 009) FAULT=dl_bus DL=2 FAULT_RANK=2 FAULT_STEP=5 TO=15 FMT=prefix STEPS=12
srun -l $PY $T
X
}
r010() { plan 010 hub_network_error 0 "srun -l, only rank 0 downloads tokenizer from HF hub (no internet), others wait in barrier"
sb 010 -J hf-tok -n 3 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 010) FAULT=hub FAULT_RANK=0 TO=60 FMT=logging_rank STEPS=10
srun -l $PY $T
X
}
r011() { plan 011 nccl_timeout 0 "srun -o per-rank files, --kill-on-bad-exit; rank 0 spins in a busy loop silently at step 5"
sb 011 -J spin -n 3 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 011) FAULT=spin FAULT_RANK=0 FAULT_STEP=5 TO=12 FMT=logging STEPS=20
srun --kill-on-bad-exit=1 -o %x-%j-%t.out $PY $T
X
}
r012() { plan 012 nccl_timeout 1 "srun -l, rank 1 blocks forever in a read() during evaluation"
sb 012 -J eval-read -n 4 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 012) FAULT=read FAULT_RANK=1 FAULT_STEP=7 FAULT_PHASE=eval EVAL_EVERY=4 TO=12 FMT=json STEPS=20
srun -l --kill-on-bad-exit=1 $PY $T
X
}
r013() { plan 013 checkpoint_disk_full 0 "srun -l, rank 0 saves checkpoint to a full 1MB filesystem"
mkdir -p /tmp/r62full013; mountpoint -q /tmp/r62full013 || mount -t tmpfs -o size=1m tmpfs /tmp/r62full013
sb 013 -J ckpt-full -n 3 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 013) CKPT_DIR=/tmp/r62full013 CKPT_EVERY=5 CKPT_PAD=400000 TO=20 FMT=prefix STEPS=20
srun -l $PY $T
X
}
r014() { plan 014 nan_inf_loss 3 "srun -l, rank 3 gets an inf input at step 6, loss inf, raises"
sb 014 -J nan -n 4 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 014) FAULT=nan FAULT_RANK=3 FAULT_STEP=6 TO=15 FMT=prefix STEPS=20
srun -l $PY $T
X
}
r015() { plan 015 nccl_timeout 1 "torchrun --tee 3 --log-dir, rank 1 sleeps silently"
mkdir -p $R/015; cd /tmp; FAULT=sleep FAULT_RANK=1 FAULT_STEP=4 TO=10 STEPS=12 FMT=rank0 \
  $TR --nproc-per-node 3 --master-port $(pt 015) --tee 3 --log-dir /tmp/r62_015_logs $T > $R/015/console.log 2>&1
cp -r /tmp/r62_015_logs $R/015/torchrun_logs
}
r016() { plan 016 dataloader_worker_killed 2 "torchrun, 4 procs, DataLoader worker of rank 2 segfaults"
mkdir -p $R/016; cd /tmp; FAULT=dl_segv DL=2 FAULT_RANK=2 FAULT_STEP=4 TO=15 STEPS=12 FMT=logging \
  $TR --nproc-per-node 4 --master-port $(pt 016) $T > $R/016/train.log 2>&1
}
r017() { plan 017 host_oom_killed 2 "torchrun --redirects 3 --log-dir, rank 2 OOM-killed by memory cgroup (SIGKILL)"
local cg=$(mkcg 017 300M); mkdir -p $R/017; cd /tmp; FAULT=cgroup_oom OOM_CG=$cg FAULT_RANK=2 FAULT_STEP=6 TO=15 STEPS=15 FMT=prefix \
  $TR --nproc-per-node 3 --master-port $(pt 017) --redirects 3 --log-dir /tmp/r62_017_logs $T > $R/017/launcher.log 2>&1
cp -r /tmp/r62_017_logs $R/017/logs
}
r018() { plan 018 dtype_mismatch 3 "two torchrun agents (--nnodes 2, c10d), global rank 3 hits a dtype error at step 5"
mkdir -p $R/018; cd /tmp; export FAULT=dtype FAULT_RANK=3 FAULT_STEP=5 TO=15 STEPS=15 FMT=prefix
  $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$(pt 018) --rdzv-id r018 $T > $R/018/node0.log 2>&1 &
  $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$(pt 018) --rdzv-id r018 $T > $R/018/node1.log 2>&1; wait
}
r019() { plan 019 rendezvous_failure null "torchrun --nnodes 2 but the second node never starts; rendezvous join timeout"
mkdir -p $R/019; cd /tmp; STEPS=5 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$(pt 019) --rdzv-id r019 --rdzv-conf join_timeout=25 $T > $R/019/console.log 2>&1
}
r020() { plan 020 port_in_use null "another process already listens on the master port"
mkdir -p $R/020; cd /tmp; $PY -c "import socket,time;s=socket.socket();s.setsockopt(socket.SOL_SOCKET,socket.SO_REUSEADDR,1);s.bind(('0.0.0.0',$(pt 020)));s.listen();time.sleep(60)" & local lp=$!
sleep 2; STEPS=5 $TR --nproc-per-node 2 --master-port $(pt 020) $T > $R/020/console.log 2>&1; kill $lp
}
r021() { plan 021 tokenizer_or_data_error 1 "torchrun --max-restarts 1, rank 1 hits a malformed JSONL record in its shard, both attempts"
mkdir -p /tmp/r62data; $PY - <<'P'
import json
with open("/tmp/r62data/train-00003-of-00008.jsonl","w") as f:
    for i in range(50): f.write(json.dumps({"id": i, "text": "sample %d lorem ipsum" % i})+"\n")
    f.write('{"id": 50, "text": "truncated record\n')
P
mkdir -p $R/021; cd /tmp; FAULT=badjson DATA_FILE=/tmp/r62data/train-00003-of-00008.jsonl FAULT_RANK=1 FAULT_STEP=6 TO=15 STEPS=15 FMT=logging_rank \
  $TR --nproc-per-node 2 --max-restarts 1 --master-port $(pt 021) $T > $R/021/console.log 2>&1
}
r022() { plan 022 healthy null "torchrun --max-restarts 2, transient ConnectionResetError on rank 1 at step 7, restart resumes from checkpoint and finishes"
rm -rf /tmp/r62ck022; mkdir -p /tmp/r62ck022 $R/022; cd /tmp; FAULT=transient FAULT_RANK=1 FAULT_STEP=7 CKPT_DIR=/tmp/r62ck022 CKPT_EVERY=5 RESUME=latest TO=15 STEPS=15 FMT=prefix \
  $TR --nproc-per-node 2 --max-restarts 2 --master-port $(pt 022) $T > $R/022/console.log 2>&1
}
r023() { plan 023 checkpoint_disk_full 0 "torchrun --max-restarts 1: step-10 save on rank 0 hits ENOSPC leaving a torn file; restart resumes from the torn file -> corrupt"
mkdir -p /tmp/r62full023; mountpoint -q /tmp/r62full023 || mount -t tmpfs -o size=1m tmpfs /tmp/r62full023; rm -f /tmp/r62full023/*
mkdir -p $R/023; cd /tmp; CKPT_DIR=/tmp/r62full023 CKPT_EVERY=5 CKPT_PAD=150000 RESUME=latest TO=15 STEPS=20 FMT=prefix \
  $TR --nproc-per-node 2 --max-restarts 1 --master-port $(pt 023) $T > $R/023/console.log 2>&1
}
r024() { plan 024 healthy null "torchrun, healthy with TORCH_DISTRIBUTED_DEBUG=INFO, NCCL_* env warnings, deprecation warnings"
mkdir -p $R/024; cd /tmp; TORCH_DISTRIBUTED_DEBUG=INFO TORCH_CPP_LOG_LEVEL=INFO PYTHONWARNINGS=always STEPS=12 FMT=prefix \
  $TR --nproc-per-node 3 --master-port $(pt 024) $T > $R/024/console.log 2>&1
}
r025() { plan 025 healthy null "torchrun, long healthy run with many json log lines"
mkdir -p $R/025; cd /tmp; STEPS=400 STEP_SLEEP=0.01 FMT=json EVAL_EVERY=50 \
  $TR --nproc-per-node 2 --master-port $(pt 025) $T > $R/025/train.jsonl 2>&1
}
r026() { plan 026 tokenizer_or_data_error 2 "torchrun, prefetch thread on rank 2 dies on a corrupt record (unprefixed thread traceback), main thread waits forever, others time out"
mkdir -p $R/026; cd /tmp; FAULT=thread FAULT_RANK=2 FAULT_STEP=5 TO=12 STEPS=20 FMT=prefix \
  $TR --nproc-per-node 3 --master-port $(pt 026) $T > $R/026/console.log 2>&1
}
r027() { plan 027 nccl_timeout 2 "two torchrun agents (--nnodes 2), global rank 2 (node 1 local 0) spins silently"
mkdir -p $R/027; cd /tmp; export FAULT=spin FAULT_RANK=2 FAULT_STEP=5 TO=12 STEPS=15 FMT=logging
  $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$(pt 027) --rdzv-id r027 $T > $R/027/node0.log 2>&1 &
  $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:$(pt 027) --rdzv-id r027 $T > $R/027/node1.log 2>&1; wait
}
r028() { plan 028 checkpoint_load_mismatch null "torchrun --log-dir + @record error.json: all ranks resume from a checkpoint of a different model"
mkdir -p /tmp/r62ck028 $R/028; $PY -c "
import torch,torch.nn as nn
m=nn.Sequential(nn.Linear(32,128),nn.ReLU(),nn.Linear(128,1)); torch.save({'model':m.state_dict(),'step':40},'/tmp/r62ck028/ckpt_step40.pt')"
cd /tmp; RECORD=1 CKPT_DIR=/tmp/r62ck028 RESUME=ckpt_step40.pt TO=15 STEPS=60 FMT=prefix \
  $TR --nproc-per-node 2 --master-port $(pt 028) --log-dir /tmp/r62_028_logs $T > $R/028/console.log 2>&1
cp -r /tmp/r62_028_logs $R/028/elastic_logs
}
r029() { plan 029 python_exception_other 1 "torchrun, KeyError on rank 1 in shutdown phase after training finished"
mkdir -p $R/029; cd /tmp; FAULT=keyerror FAULT_RANK=1 FAULT_STEP=10 FAULT_PHASE=shutdown TO=15 STEPS=10 FMT=prefix \
  $TR --nproc-per-node 3 --master-port $(pt 029) $T > $R/029/console.log 2>&1
}
r030() { plan 030 too_many_open_files 3 "torchrun under ulimit -n 256, rank 3 leaks file handles"
mkdir -p $R/030; cd /tmp; (ulimit -n 256; FAULT=fdleak FAULT_RANK=3 FAULT_STEP=6 TO=15 STEPS=15 FMT=prefix \
  $TR --nproc-per-node 4 --master-port $(pt 030) $T > $R/030/console.log 2>&1)
}
r031() { plan 031 dependency_abi_mismatch null "torchrun, all ranks fail importing a compiled extension that is not installed"
mkdir -p $R/031; cd /tmp; IMPORT_EXT=fused_adam_cuda STEPS=5 FMT=prefix $TR --nproc-per-node 2 --master-port $(pt 031) $T > $R/031/console.log 2>&1
}
r032() { plan 032 healthy null "torchrun, GradScaler overflows for the first 4 steps (skipped), scale settles, training finishes"
mkdir -p $R/032; cd /tmp; SCALER=1 FAULT=scaler_warm FAULT_STEP=4 STEPS=30 FMT=prefix $TR --nproc-per-node 2 --master-port $(pt 032) $T > $R/032/console.log 2>&1
}
r033() { plan 033 fp16_loss_scale_overflow null "torchrun, GradScaler overflows every step from step 3 until the scale collapses"
mkdir -p $R/033; cd /tmp; SCALER=1 FAULT=scaler_collapse FAULT_STEP=3 STEPS=60 STEP_SLEEP=0.05 MIN_SCALE=1e-4 FMT=prefix $TR --nproc-per-node 2 --master-port $(pt 033) $T > $R/033/console.log 2>&1
}
r034() { plan 034 loss_spike_divergence null "torchrun, LR warmup bug: LR grows 1.6x/step from step 5, loss explodes"
mkdir -p $R/034; cd /tmp; FAULT=diverge FAULT_STEP=5 STEPS=40 LR=0.01 FMT=json $TR --nproc-per-node 2 --master-port $(pt 034) $T > $R/034/console.log 2>&1
}
r039() { plan 039 checkpoint_permission_denied 0 "torchrun, rank 0 saves checkpoint into a read-only filesystem"
mkdir -p /tmp/r62ro; mountpoint -q /tmp/r62ro || { mount -t tmpfs -o size=4m tmpfs /tmp/r62ro; mkdir -p /tmp/r62ro/ckpt; mount -o remount,ro /tmp/r62ro; }
mkdir -p $R/039; cd /tmp; CKPT_DIR=/tmp/r62ro/ckpt CKPT_EVERY=8 TO=15 STEPS=20 FMT=logging_rank $TR --nproc-per-node 3 --master-port $(pt 039) $T > $R/039/console.log 2>&1
}
r040() { plan 040 healthy null "sbatch+srun -l, 3 tasks, healthy with periodic checkpoints"
rm -rf /tmp/r62ck040; mkdir -p /tmp/r62ck040
sb 040 -J healthy -n 3 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 040) CKPT_DIR=/tmp/r62ck040 CKPT_EVERY=10 EVAL_EVERY=10 FMT=plain STEPS=30
srun -l $PY $T
X
}
r043() { plan 043 healthy null "sbatch+srun per-rank files, resumes from an existing checkpoint and finishes"
sb 043 -J resume -n 2 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 043) CKPT_DIR=/tmp/r62ck040 RESUME=latest CKPT_EVERY=10 FMT=logging_rank STEPS=40
srun -o %x-%j-%t.out $PY $T
X
}
r044() { plan 044 nccl_timeout 2 "torchrun --tee 3 --log-dir, rank 2 blocks opening a FIFO nobody writes (silent)"
mkdir -p $R/044; cd /tmp; FAULT=fifo FAULT_RANK=2 FAULT_STEP=3 TO=10 STEPS=12 FMT=plain \
  $TR --nproc-per-node 4 --master-port $(pt 044) --tee 3 --log-dir /tmp/r62_044_logs $T > $R/044/console.log 2>&1
cp -r /tmp/r62_044_logs $R/044/logs
}
r045() { plan 045 nccl_remote_peer_exited 0 "torchrun, rank 0 has a shorter shard, exits 0 early, others lose the peer"
mkdir -p $R/045; cd /tmp; FAULT=uneven FAULT_RANK=0 FAULT_STEP=6 TO=20 STEPS=14 FMT=prefix \
  $TR --nproc-per-node 3 --master-port $(pt 045) $T > $R/045/console.log 2>&1
}
r046() { plan 046 host_oom_killed 1 "sbatch+srun --kill-on-bad-exit per-rank files, rank 1 OOM-killed by memory cgroup at step 4"
local cg=$(mkcg 046 300M)
sb 046 -J oom2 -n 3 --time=3 <<X
#!/bin/bash
export MASTER_PORT=$(pt 046) FAULT=cgroup_oom FAULT_RANK=1 FAULT_STEP=4 TO=15 FMT=logging STEPS=20 OOM_CG=$cg
srun --kill-on-bad-exit=1 -o %x-%j-%t.out $PY $T
X
}
r047() { plan 047 nccl_timeout 3 "sbatch+srun (no -l, no kill-on-bad-exit), rank 3 sleeps in checkpoint phase; job hits time limit after others time out"
sb 047 -J ckpt-sleep -n 4 --time=1 <<X
#!/bin/bash
export MASTER_PORT=$(pt 047) FAULT=sleep FAULT_RANK=3 FAULT_STEP=9 FAULT_PHASE=ckpt CKPT_DIR=/tmp CKPT_EVERY=5 CKPT_ALL=1 TO=15 FMT=prefix STEPS=30
srun $PY $T
X
}
"$@"
# ---- mp.spawn / Lightning runs (appended; dispatched by runs2.sh)
