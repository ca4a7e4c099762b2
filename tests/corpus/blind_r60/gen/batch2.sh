#!/bin/bash
# single-host torchrun: checkpoint/storage, OOM cgroup, multi-agent, launch failures
source /work/blind/r60/gen/lib.sh
cd /tmp
t() { local n=$1 np=$2 port=$3; shift 3; D=$(mk $n)
  $TR --nproc-per-node $np --master-port $port "$@" $G/train.py > $D/console.log 2>&1; echo "$n rc=$?"; }
$PY $G/mkckpts.py
# 011 real memory cgroup OOM kill of rank 2
CG=/sys/fs/cgroup/memory/b60oom; mkdir -p $CG; echo $((400*1024*1024)) > $CG/memory.limit_in_bytes
D=$(mk 011); dmesg > /tmp/b60_dmesg_before.txt
MODE=cgroup_oom OOMCG=$CG FAIL_RANK=2 FAIL_STEP=4 FMT=logA $TR --nproc-per-node 3 --master-port 29611 --log-dir $D/logs --tee 3 $G/train.py > $D/console.log 2>&1; echo "011 rc=$?"
dmesg | diff /tmp/b60_dmesg_before.txt - | grep '^>' | sed 's/^> //' | grep -E 'b60oom|oom|Killed process|Memory cgroup' > $D/dmesg.txt
sleep 1; rmdir $CG
# 016 disk full (tiny tmpfs)
mkdir -p /tmp/b60full; mount -t tmpfs -o size=256k tmpfs /tmp/b60full
MODE=ckpt_full CKPT_DIR=/tmp/b60full/run7 CKPT_PAD=200000 STEPS=5 FMT=logB t 016 3 29616
umount /tmp/b60full
# 017 read-only fs
mkdir -p /tmp/b60ro; mount -t tmpfs -o ro,size=1m tmpfs /tmp/b60ro
MODE=ckpt_ro CKPT_DIR=/tmp/b60ro/checkpoints STEPS=4 FMT=prefix t 017 2 29617
umount /tmp/b60ro
# 018 async checkpoint writer timeout
MODE=ckpt_timeout CKPT_DIR=/tmp/b60ck/out18 STEPS=4 FMT=json PGTO=30 t 018 2 29618
MODE=load_mismatch LOAD=/tmp/b60ck/resume/model.pt FMT=logA t 019 3 29619
MODE=load_corrupt LOAD=/tmp/b60ck/shards_corrupt FAIL_RANK=1 FMT=logC t 020 4 29620
MODE=load_missing LOAD=/tmp/b60ck/shards_missing FMT=prefix2 t 021 3 29621
# 029 port in use
$PY -c "import socket,time; s=socket.socket(); s.bind(('0.0.0.0',29629)); s.listen(); time.sleep(40)" & HOLD=$!
sleep 1; MODE=none FMT=logA t 029 2 29629; kill $HOLD
# 030 rendezvous never forms: second node never joins (c10d backend, short join timeout)
D=$(mk 030); MODE=none FMT=logA $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29630 --rdzv-id job30 --rdzv-conf join_timeout=25 $G/train.py > $D/node0.log 2>&1; echo "030 rc=$?"
# two agents, failing rank on node 1
two() { local n=$1 port=$2; shift 2; D=$(mk $n)
  $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port $port "$@" $G/train.py > $D/node0.log 2>&1 & A=$!
  $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port $port "$@" $G/train.py > $D/node1.log 2>&1
  echo "$n node1 rc=$?"; wait $A; echo "$n node0 rc=$?"; }
MODE=shape FAIL_RANK=3 FAIL_STEP=3 FMT=logB two 031 29631
MODE=import_missing FAIL_RANK=2 FMT=logA two 032 29632
MODE=sleep FAIL_RANK=2 FAIL_STEP=2 HANG=45 FMT=prefix two 033 29633
MODE=double FAIL_RANK=3 FAIL_RANK2=1 FAIL_STEP=4 FMT=json two 034 29634
# healthy: restart then success
MODE=flaky FAIL_RANK=1 FAIL_STEP=2 FMT=logC t 043 2 29643 --max-restarts 2
# healthy: two agents
MODE=warn STEPS=5 FMT=logA two 044 29644
