source /work/blind/r63/gen/common.sh
r005() { rd 005; MODE=ok MAX_STEPS=16 $TR --nproc-per-node 2 --master-port 29605 $G/hf_trainer.py > train.log 2>&1; }
r006() { rd 006; MODE=bad_sample MAX_STEPS=16 $TR --nproc-per-node 2 --master-port 29606 $G/hf_trainer.py > train.log 2>&1; }
r007() { rd 007; MODE=bad_config $TR --nproc-per-node 2 --master-port 29607 $G/hf_trainer.py > train.log 2>&1; }
r015() { rd 015; CG=/sys/fs/cgroup/memory/b63_015; mkdir -p $CG; echo $((1200*1024*1024)) > $CG/memory.limit_in_bytes; echo 0 > $CG/memory.swappiness 2>/dev/null;
  bash -c "echo \$\$ > $CG/cgroup.procs; FAULT=oom_cgroup FAULT_RANK=1 FAULT_STEP=7 exec $TR --nproc-per-node 3 --master-port 29615 --log-dir /tmp/l015 --redirects 3 $G/ddp.py" > launcher.log 2>&1;
  rm -rf logs; cp -r /tmp/l015 logs; rm -rf /tmp/l015; sleep 1; rmdir $CG; }
r016() { rd 016; FAULT=segv FAULT_RANK=0 FAULT_STEP=8 $TR --nproc-per-node 2 --master-port 29616 --tee 3 $G/ddp.py > console.log 2>&1; }
r017() { rd 017; FAULT=uneven FAULT_RANK=2 FAULT_STEP=9 PG_TIMEOUT=15 LOGFMT=json $TR --nproc-per-node 3 --master-port 29617 $G/ddp.py > console.log 2>&1; }
r018() { rd 018; $PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',29618));s.listen();time.sleep(60)" & P=$!; sleep 1; $TR --nproc-per-node 2 --master-port 29618 $G/ddp.py > console.log 2>&1; kill $P; }
r021() { rd 021; rm -f /tmp/flag63_once; FAULT=once_crash FAULT_RANK=1 FAULT_STEP=6 LOGFMT=logging $TR --nproc-per-node 2 --max-restarts 1 --master-port 29621 $G/ddp.py > console.log 2>&1; }
r022() { rd 022; rm -f console.log; FAULT=shape FAULT_RANK=1 FAULT_STEP=4 $TR --nproc-per-node 2 --max-restarts 2 --master-port 29622 $G/ddp2.py > console.log 2>&1; }
r023() { rd 023; FAULT=bg_thread FAULT_RANK=1 FAULT_STEP=5 PG_TIMEOUT=15 LOGFMT=rankless $TR --nproc-per-node 2 --master-port 29623 $G/ddp.py > console.log 2>&1; }
r024() { rd 024; FAULT=deadlock FAULT_RANK=0 FAULT_STEP=6 PG_TIMEOUT=15 SPAWN=3 MASTER_PORT=29624 $PY $G/ddp.py > console.log 2>&1; }
r025() { rd 025; FAULT=abort FAULT_RANK=2 FAULT_STEP=5 SPAWN=3 MASTER_PORT=29625 $PY $G/ddp.py > console.log 2>&1; }
r026() { rd 026; FAULT=fd_limit FAULT_RANK=1 FAULT_STEP=3 SPAWN=2 MASTER_PORT=29626 LOGFMT=logging $PY $G/ddp.py > console.log 2>&1; rm -f /tmp/shardcache63_*; }
"$@"
