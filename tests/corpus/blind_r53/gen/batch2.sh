#!/bin/bash
# runs 006, 019-030, 036-043: two agents, elastic restarts, launch failures, mp.spawn, Lightning, accelerate, healthy variants
source /work/blind/r53/set/gen/lib.sh
export GLOO_TIMEOUT=15 STEPS=20
two_node() { # two_node NNN PORT  (env passed through); node0.log / node1.log
  local n=$1 port=$2; local d=$SET/runs/$n; rm -rf $d; mkdir -p $d
  ( cd $d; timeout 110 $TR --nnodes=2 --node_rank=0 --nproc_per_node=2 --master_addr=127.0.0.1 --master_port=$port $G/train.py > node0.log 2>&1 & 
    sleep 1; timeout 110 $TR --nnodes=2 --node_rank=1 --nproc_per_node=2 --master_addr=127.0.0.1 --master_port=$port $G/train.py > node1.log 2>&1; wait )
  echo "run $n done" | tee -a $SET/gen/rc.txt
}
# 006 DataLoader worker of rank 2 SIGKILLed
STYLE=log MODE=dlkill CULPRIT=2 FSTEP=5 tr_run 006 4 29606
# 019 two agents, KeyError on global rank 3 (node 1)
STYLE=print MODE=keyerror CULPRIT=3 FSTEP=6 two_node 019 29619
# 020 two agents, memory watcher SIGKILLs global rank 2 (node 1, local 0)
( timeout 60 $PY $G/memwatch.py 1200 > /tmp/r53_memwatch020.log 2>&1 & )
STYLE=log MODE=grow CULPRIT=2 FSTEP=3 STEP_SLEEP=0.3 two_node 020 29620
cp /tmp/r53_memwatch020.log $SET/runs/020/memwatch.log
# 021 elastic --max-restarts=2, rank 1 fails the same way every attempt
STYLE=log MODE=keyerror CULPRIT=1 FSTEP=4 tr_run 021 3 29621 --max-restarts=2
# 022 elastic restart after a transient error on rank 2, then completes (healthy)
STYLE=print MODE=transient CULPRIT=2 FSTEP=4 tr_run 022 4 29622 --max-restarts=1
# 023 master port already bound
$PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',29623));s.listen();time.sleep(40)" & HOLD=$!
sleep 1; STYLE=print tr_run 023 2 29623; kill $HOLD
# 024 second node never arrives: c10d rendezvous times out
d=$SET/runs/024; rm -rf $d; mkdir -p $d
( cd $d; timeout 110 $TR --nnodes=2 --node_rank=0 --nproc_per_node=2 --rdzv-backend=c10d --rdzv-endpoint=127.0.0.1:29624 --rdzv-id=job024 --rdzv-conf join_timeout=20 $G/train.py > console.log 2>&1 ); echo "run 024 rc=$?" >> $SET/gen/rc.txt
# 025 mp.spawn, rank 1 embedding index out of range
d=$SET/runs/025; rm -rf $d; mkdir -p $d; ( cd $d; timeout 110 $PY $G/spawn_train.py 3 29625 index 1 > console.log 2>&1 ); echo "run 025 rc=$?" >> $SET/gen/rc.txt
# 026 mp.spawn healthy with warnings
d=$SET/runs/026; rm -rf $d; mkdir -p $d; ( cd $d; timeout 110 $PY $G/spawn_train.py 3 29626 warn -1 > console.log 2>&1 ); echo "run 026 rc=$?" >> $SET/gen/rc.txt
# 027 Lightning ddp, ValueError in training_step on rank 1
d=$SET/runs/027; rm -rf $d; mkdir -p $d; ( cd $d; MASTER_PORT=29627 MODE=exc CULPRIT=1 FSTEP=9 timeout 110 $PY $G/lit_train.py > console.log 2>&1 ); echo "run 027 rc=$?" >> $SET/gen/rc.txt
# 028 Lightning ddp healthy
d=$SET/runs/028; rm -rf $d; mkdir -p $d; ( cd $d; MASTER_PORT=29628 timeout 110 $PY $G/lit_train.py > console.log 2>&1 ); echo "run 028 rc=$?" >> $SET/gen/rc.txt
# 029 Lightning ddp, memory watcher kills rank 1
( timeout 70 $PY $G/memwatch.py 1200 > /tmp/r53_memwatch029.log 2>&1 & )
d=$SET/runs/029; rm -rf $d; mkdir -p $d; ( cd $d; MASTER_PORT=29629 MODE=grow CULPRIT=1 FSTEP=4 timeout 110 $PY $G/lit_train.py > console.log 2>&1 ); echo "run 029 rc=$?" >> $SET/gen/rc.txt
cp /tmp/r53_memwatch029.log $SET/runs/029/memwatch.log
# 030 accelerate healthy under torchrun
d=$SET/runs/030; rm -rf $d; mkdir -p $d; ( cd $d; timeout 110 $TR --nproc_per_node=3 --master_port=29630 $G/acc_train.py > console.log 2>&1 ); echo "run 030 rc=$?" >> $SET/gen/rc.txt
# 036 accelerate, dtype mismatch on rank 1
d=$SET/runs/036; rm -rf $d; mkdir -p $d; ( cd $d; MODE=dtype CULPRIT=1 FSTEP=3 timeout 110 $TR --nproc_per_node=3 --master_port=29636 $G/acc_train.py > console.log 2>&1 ); echo "run 036 rc=$?" >> $SET/gen/rc.txt
# 037 healthy with gloo/c10d debug chatter
TORCH_CPP_LOG_LEVEL=INFO TORCH_DISTRIBUTED_DEBUG=DETAIL NCCL_DEBUG=INFO STYLE=print tr_run 037 3 29637
# 038 healthy with a logged-and-handled exception on rank 0
STYLE=log MODE=handled FSTEP=6 tr_run 038 4 29638
# 039 healthy, still running when the console was copied
d=$SET/runs/039; rm -rf $d; mkdir -p $d
( cd $d; STEPS=100000 STEP_SLEEP=0.2 STYLE=log timeout 60 $TR --nproc_per_node=2 --master_port=29639 $G/train.py > /tmp/r53_039.log 2>&1 ) & 
sleep 25; cp /tmp/r53_039.log $d/console.log; wait
# 040 healthy with tqdm progress bars
STYLE=tqdm tr_run 040 2 29640
# 043 healthy two agents
STYLE=log two_node 043 29643
# 044 rank 1 all_reduces a 5-element tensor while the others use 4 (DETAIL debug)
TORCH_DISTRIBUTED_DEBUG=DETAIL STYLE=log MODE=mismatch_shape CULPRIT=1 FSTEP=3 tr_run 044 3 29644
