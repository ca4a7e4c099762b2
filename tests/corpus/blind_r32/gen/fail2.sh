#!/bin/bash
set -x
cd /work/blind/r32
export OMP_NUM_THREADS=1 PY=/work/blind/venv/bin/python TR=/work/blind/venv/bin/torchrun G=/work/blind/r32/gen SLURM_CONF=/work/blind/r32/slurm/slurm.conf
R=runs
# 018 cgroup v1 memory limit 300M on rank 1 process + leak -> kernel OOM kill; torchrun --tee, log dir
mkdir -p $R/018; echo 300M > /sys/fs/cgroup/memory/r32oom/memory.limit_in_bytes; echo 0 > /sys/fs/cgroup/memory/r32oom/memory.swappiness || true
(MODE=cg_leak STEPS=200 STEP_SLEEP=0.2 timeout 110 $TR --nproc-per-node 2 --master-port 38018 --log-dir $R/018/logs --tee 3 $G/train.py > /tmp/r32_018_console.log 2>&1; echo "018 rc=$?") &
sleep 9; P=$(grep -h "rank=1 init done" -r $R/018/logs | grep -v '^\[' | head -1 | sed 's/.*pid=//'); [ -z "$P" ] && P=$(grep -h "rank=1 init done" -r $R/018/logs | head -1| sed 's/.*pid=//'); echo "cgroup rank1 pid $P"; echo $P > /sys/fs/cgroup/memory/r32oom/cgroup.procs; wait
dmesg 2>/dev/null | tail -5; cat /sys/fs/cgroup/memory/r32oom/memory.oom_control
# 019 checkpoint to full 2M tmpfs -> ENOSPC; srun --label
mkdir -p $R/019 /tmp/r32ck019; mount -t tmpfs -o size=2M tmpfs /tmp/r32ck019
MODE=plain STEPS=60 CKPT=/tmp/r32ck019 CKPT_PAD=1000000 MASTER_ADDR=127.0.0.1 MASTER_PORT=38019 timeout 110 srun --label -n 2 $PY $G/train.py > $R/019/console.log 2>&1; echo "019 rc=$?"; df -h /tmp/r32ck019; umount /tmp/r32ck019
# 020 checkpoint to read-only mount -> EROFS; mp.spawn
mkdir -p $R/020 /tmp/r32ck020; mount -t tmpfs -o ro,size=4M tmpfs /tmp/r32ck020
MODE=plain STEPS=60 CKPT=/tmp/r32ck020 SPAWN=2 MASTER_PORT=38020 timeout 110 $PY $G/train.py > $R/020/console.log 2>&1; echo "020 rc=$?"; umount /tmp/r32ck020
# 021 exception in DataLoader worker (truncated JSON record) on rank 1; torchrun --tee, console
mkdir -p $R/021; MODE=dl_exc STEPS=60 timeout 110 $TR --nproc-per-node 2 --master-port 38021 --log-dir /tmp/r32_021 --tee 3 $G/train.py > $R/021/console.log 2>&1; echo "021 rc=$?"
# 022 DataLoader worker of rank 0 SIGKILLed from outside; torchrun console
mkdir -p $R/022; (MODE=dl_kill STEPS=400 STEP_SLEEP=0.1 timeout 110 $TR --nproc-per-node 2 --master-port 38022 $G/train.py > $R/022/console.log 2>&1; echo "022 rc=$?") &
sleep 15; P0=$(grep "rank=0 init done" $R/022/console.log | sed 's/.*pid=//'); W=$(pgrep -P $P0 | head -1); echo "rank0 $P0 worker $W"; ps -o pid,ppid,cmd -p $W; kill -9 $W; wait
# 023 uneven data: rank 1 exits 0 early; torchrun 2 console
mkdir -p $R/023; MODE=uneven STEPS=80 PG_TIMEOUT=20 timeout 110 $TR --nproc-per-node 2 --master-port 38023 $G/train.py > $R/023/console.log 2>&1; echo "023 rc=$?"
