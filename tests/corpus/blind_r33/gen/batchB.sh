#!/bin/bash
# sequential-ish; at most 2 jobs at once
W=/tmp/r33w; G=/work/blind/r33/gen; PY=/work/blind/venv/bin/python; TR=/work/blind/venv/bin/torchrun
export OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
# 1. mp.spawn abort rank 0 (3 procs)
(cd $W; FAULT=abort FAULT_RANK=0 SPAWN=3 MASTER_PORT=39201 timeout 120 $PY $G/train.py > $W/spawn_abort.log 2>&1; echo "exit=$?" > $W/spawn_abort.log.meta) &
# 2. mp.spawn healthy with workers warning (2 procs, 4 workers)
(cd $W; SPAWN=2 WORKERS=3 MASTER_PORT=39202 STEPS=25 timeout 120 $PY $G/train.py > $W/spawn_ok.log 2>&1; echo "exit=$?" > $W/spawn_ok.log.meta) &
wait
# 3. port in use (torchrun)
$PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',39203));s.listen();time.sleep(60)" & HOLD=$!
sleep 1
timeout 100 $TR --nproc-per-node 2 --master-port 39203 $G/train.py > $W/port.log 2>&1; echo "exit=$?" > $W/port.log.meta
kill $HOLD
# 4. rendezvous never completes: node 0 of 2 only, c10d
timeout 120 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:39204 --rdzv-id job4 --rdzv-conf join_timeout=30 $G/train.py > $W/rdzv.log 2>&1; echo "exit=$?" > $W/rdzv.log.meta
# 5. two nodes, node1 local rank 0 (global rank 2) hangs; hand over node0 only
(FAULT=hang FAULT_RANK=2 PG_TIMEOUT=20 HANG_FIFO=/tmp/r33fifo5 timeout 120 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 39205 $G/train.py > $W/2n_hang_node0.log 2>&1; echo "exit=$?" > $W/2n_hang_node0.log.meta) &
(FAULT=hang FAULT_RANK=2 PG_TIMEOUT=20 HANG_FIFO=/tmp/r33fifo5 timeout 120 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 39205 $G/train.py > $W/2n_hang_node1.log 2>&1; echo "exit=$?" > $W/2n_hang_node1.log.meta) &
wait
# 6. two nodes, nan on global rank 3, per-rank log dirs
rm -rf $W/2n_nan_logs
(FAULT=nan FAULT_RANK=3 timeout 120 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 39206 --log-dir $W/2n_nan_logs/node0 --redirects 3 --tee 3 $G/train.py > $W/2n_nan_node0.log 2>&1; echo "exit=$?" > $W/2n_nan_node0.log.meta) &
(FAULT=nan FAULT_RANK=3 timeout 120 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 39206 --log-dir $W/2n_nan_logs/node1 --redirects 3 --tee 3 $G/train.py > $W/2n_nan_node1.log 2>&1; echo "exit=$?" > $W/2n_nan_node1.log.meta) &
wait
# 7. two nodes healthy
(STEPS=25 SAVE=1 CKPT_DIR=/tmp/r33ck_h7 timeout 120 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 39207 $G/train.py > $W/2n_ok_node0.log 2>&1; echo "exit=$?" > $W/2n_ok_node0.log.meta) &
(STEPS=25 SAVE=1 CKPT_DIR=/tmp/r33ck_h7 timeout 120 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 39207 $G/train.py > $W/2n_ok_node1.log 2>&1; echo "exit=$?" > $W/2n_ok_node1.log.meta) &
wait
# 8. real cgroup memory limit: rank 1 hogs, whole torchrun in a 1.5G memcg
CG=/sys/fs/cgroup/memory/r33oom; mkdir -p $CG; echo $((1500*1024*1024)) > $CG/memory.limit_in_bytes
(echo $BASHPID > $CG/cgroup.procs; FAULT=oom FAULT_RANK=1 exec timeout 120 $TR --nproc-per-node 2 --master-port 39208 $G/train.py > $W/oom_cg.log 2>&1); echo "exit=$?" > $W/oom_cg.log.meta
cat $CG/memory.failcnt $CG/memory.oom_control > $W/oom_cg.cg 2>&1
# 9. ulimit -v: CPU allocator failure on rank 0 in a 3-proc run
(ulimit -v 3000000; FAULT=oom FAULT_RANK=0 FAULT_STEP=4 exec timeout 120 $TR --nproc-per-node 3 --master-port 39209 $G/train.py > $W/oom_ulimit.log 2>&1); echo "exit=$?" > $W/oom_ulimit.log.meta
# 10. healthy 4 procs resume from a good checkpoint, with per-rank log dir
rm -rf $W/h4_logs; FAULT=load_corrupt CKPT_DIR=/tmp/r33ck_ok STEPS=20 timeout 120 $TR --nproc-per-node 4 --master-port 39210 --log-dir $W/h4_logs --redirects 3 $G/train.py > $W/h4.log 2>&1; echo "exit=$?" > $W/h4.log.meta
echo ALLDONE
