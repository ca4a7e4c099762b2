#!/bin/bash
# Part 1: single-launcher failing runs. Each block creates runs/NNN.
source /work/blind/r54/set/gen/lib.sh
cd /tmp/r54
mkdir -p /tmp/r54/data; for i in $(seq 0 49); do : > /tmp/r54/data/idx$i.bin; done

# 003 hang: srun 4 tasks, per-task files, rank 3 blocks silently; others hit gloo timeout (20s)
newrun 003; cd $R
FAIL=hang FAIL_RANK=3 FAIL_STEP=45 STEPS=80 PG_TIMEOUT=20 STYLE=epoch MASTER_ADDR=127.0.0.1 MASTER_PORT=$(port 3) \
 timeout 90 srun -n4 -o task-%t.out -e task-%t.err bash -c 'export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID; exec '$PY' '$T > srun.log 2>&1; echo rc=$?
cd /tmp/r54

# 005 real cgroup OOM on rank 1, torchrun console + kern.log from dmesg
newrun 005; CG=/sys/fs/cgroup/memory/r54oom; mkdir -p $CG; echo $((350*1024*1024)) > $CG/memory.limit_in_bytes; echo 0 > $CG/memory.swappiness 2>/dev/null
n0=$(dmesg | wc -l)
FAIL=cgroup_oom FAIL_RANK=1 FAIL_STEP=70 STEPS=100 CGROUP=$CG timeout 100 $TR --nproc_per_node 4 --master_port $(port 5) $T > $R/console.log 2>&1; echo rc=$?
sleep 1; dmesg -T | tail -n +$((n0+1)) > $R/kern.log; wc -l $R/kern.log

# 004 external memory watcher SIGKILLs rank 2 (world 4), torchrun console + watcher log
newrun 004
python3 /work/blind/r54/set/gen/memwatch.py run004 600 > $R/memwatch.log 2>&1 & W=$!
R54TAG=run004 FAIL=memhog FAIL_RANK=2 FAIL_STEP=60 STEPS=90 STYLE=glog timeout 100 $TR --nproc_per_node 4 --master_port $(port 4) $T > $R/console.log 2>&1; echo rc=$?
kill $W

# 006 rank 3 exits early with status 0; torchrun --log-dir tree + console
newrun 006
FAIL=exit0 FAIL_RANK=3 FAIL_STEP=40 STEPS=70 PG_TIMEOUT=25 timeout 100 $TR --nproc_per_node 4 --master_port $(port 6) --log-dir $R/logs --redirects 3 --tee 0 $T > $R/console.log 2>&1; echo rc=$?

# 007 collective mismatch: srun 8 tasks, TORCH_DISTRIBUTED_DEBUG=DETAIL, rank 5 all_reduces a different shape
newrun 007; cd $R
TORCH_DISTRIBUTED_DEBUG=DETAIL FAIL=mismatch FAIL_RANK=5 FAIL_STEP=25 STEPS=40 STEP_SLEEP=0.02 CHATTY=0 PG_TIMEOUT=30 MASTER_ADDR=127.0.0.1 MASTER_PORT=$(port 7) \
 timeout 100 srun -n8 -o rank%t.log bash -c 'export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID; exec '$PY' '$T > srun-console.log 2>&1; echo rc=$?
cd /tmp/r54

# 008 NaN guard on rank 5 of 8 near the end of 200 steps, glog style
newrun 008
FAIL=nan FAIL_RANK=5 FAIL_STEP=185 STEPS=200 STEP_SLEEP=0.01 STYLE=glog timeout 110 $TR --nproc_per_node 8 --master_port $(port 8) $T > $R/console.log 2>&1; echo rc=$?

# 017 checkpoint load mismatch on rank 0 (checkpoint saved from a wider model)
newrun 017
$PY -c "import torch,torch.nn as nn; torch.save(nn.Sequential(nn.Linear(16,64),nn.ReLU(),nn.Linear(64,1)).state_dict(),'/tmp/r54/ck_wide.pt')"
FAIL=ckpt_load_mismatch FAIL_RANK=0 FAIL_STEP=1 CKPT_FILE=/tmp/r54/ck_wide.pt STEPS=30 timeout 90 $TR --nproc_per_node 4 --master_port $(port 17) $T > $R/console.log 2>&1; echo rc=$?

# 018 corrupt (truncated) checkpoint loaded by rank 0
newrun 018
$PY -c "import torch,torch.nn as nn; torch.save(nn.Sequential(nn.Linear(16,32),nn.ReLU(),nn.Linear(32,1)).state_dict(),'/tmp/r54/ck_ok.pt')"; head -c 1500 /tmp/r54/ck_ok.pt > /tmp/r54/ck_torn.pt
FAIL=ckpt_corrupt FAIL_RANK=0 FAIL_STEP=1 CKPT_FILE=/tmp/r54/ck_torn.pt STEPS=30 STYLE=none timeout 90 $TR --nproc_per_node 4 --master_port $(port 18) $T > $R/console.log 2>&1; echo rc=$?

# 019 too many open files on rank 2 (ulimit -n 512)
newrun 019
( ulimit -n 512; FAIL=emfile FAIL_RANK=2 FAIL_STEP=33 STEPS=60 timeout 90 $TR --nproc_per_node 4 --master_port $(port 19) $T > $R/console.log 2>&1; echo rc=$? )

# 020 dataloader worker killed on rank 1
newrun 020
FAIL=dlkill FAIL_RANK=1 FAIL_STEP=50 STEPS=80 STYLE=epoch timeout 90 $TR --nproc_per_node 4 --master_port $(port 20) $T > $R/console.log 2>&1; echo rc=$?

# 021 port in use: something already listens on the master port
newrun 021
python3 -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',$(port 21))); s.listen(); time.sleep(60)" & L=$!; sleep 1
STEPS=20 timeout 60 $TR --nproc_per_node 4 --master_port $(port 21) $T > $R/console.log 2>&1; echo rc=$?
kill $L

# 016 checkpoint to read-only mount (EROFS) on rank 0 at step 50
newrun 016; mkdir -p /tmp/r54/romnt; mount -t tmpfs -o size=8m,ro tmpfs /tmp/r54/romnt
FAIL=ckpt_save FAIL_RANK=0 FAIL_STEP=50 STEPS=70 CKPT_DIR=/tmp/r54/romnt/ckpt timeout 90 $TR --nproc_per_node 4 --master_port $(port 16) $T > $R/console.log 2>&1; echo rc=$?
umount /tmp/r54/romnt

# 015 checkpoint disk full (6 MB tmpfs) on rank 0 at step 100
newrun 015; mkdir -p /tmp/r54/full; mount -t tmpfs -o size=6m tmpfs /tmp/r54/full
FAIL=ckpt_save FAIL_RANK=0 FAIL_STEP=100 STEPS=120 STEP_SLEEP=0.02 CKPT_DIR=/tmp/r54/full/run015 CKPT_PAD=3000000 TQDM=1 timeout 90 $TR --nproc_per_node 4 --master_port $(port 15) $T > $R/console.log 2>&1; echo rc=$?
umount /tmp/r54/full
echo PART1 DONE
