source /work/blind/r64/gen/common.sh
r001(){ w 001; STEPS=30 CKPT_EVERY=10 EVAL_EVERY=10 CKPT_DIR=$W/ckpt timeout 120 $TR --nproc-per-node 2 --master-port 29701 --tee 3 $G/train.py > $R/001/console.log 2>&1; echo "001 rc=$?"; }
r005(){ w 005; FAULT=kill9 FAULT_RANK=1 FAULT_STEP=6 FAULT_ATTEMPT=0 STEPS=15 timeout 120 $TR --nproc-per-node 2 --max-restarts 1 --master-port 29705 $G/train.py > $R/005/train_output.txt 2>&1; echo "005 rc=$?"; }
r010(){ w 010; FAULT=data_error FAULT_RANK=1 FAULT_STEP=7 LOGFMT=logging_rank STEPS=20 timeout 120 $TR --nproc-per-node 3 --master-port 29710 $G/train.py > $R/010/console.log 2>&1; echo "010 rc=$?"; }
r011(){ w 011; CG=/sys/fs/cgroup/memory/b64oom_011; rmdir $CG 2>/dev/null; mkdir -p $CG; echo 700M > $CG/memory.limit_in_bytes; echo 700M > $CG/memory.memsw.limit_in_bytes 2>/dev/null
  FAULT=cgroup_oom CGROUP=$CG FAULT_RANK=1 FAULT_STEP=4 STEPS=20 LOGFMT=prefix timeout 120 $TR --nproc-per-node 3 --master-port 29711 $G/train.py > $R/011/console.log 2>&1; echo "011 rc=$?"
  dmesg | grep -A1 "b64oom_011" | tail -4 > $R/011/dmesg.txt; rmdir $CG; }
r014(){ w 014; FAULT=sleep FAULT_RANK=2 FAULT_STEP=6 TMO=10 STEPS=20 timeout 150 $TR --nproc-per-node 3 --master-port 29714 --log-dir $W/logs --redirects 3 $G/train.py > $W/console.log 2>&1; echo "014 rc=$?"; cp -r $W/logs $R/014/torchrun_logs; cp $W/console.log $R/014/console.log; }
r017(){ w 017; FAULT=uneven FAULT_RANK=1 FAULT_STEP=8 LOGFMT=json STEPS=20 TMO=15 timeout 120 $TR --nproc-per-node 3 --master-port 29717 $G/train.py > $R/017/run.jsonl 2>&1; echo "017 rc=$?"; }
r018(){ w 018; TORCH_DISTRIBUTED_DEBUG=DETAIL FAULT=mismatch FAULT_RANK=2 FAULT_STEP=3 TMO=15 timeout 120 $TR --nproc-per-node 3 --master-port 29718 --tee 3 $G/train.py > $R/018/console.log 2>&1; echo "018 rc=$?"; }
r019(){ w 019; timeout 150 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29719 --rdzv-id job019 --rdzv-conf join_timeout=30 $G/train.py > $R/019/node0.log 2>&1; echo "019 rc=$?"; }
r020(){ w 020; $PY -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',29720));s.listen();time.sleep(60)" & BP=$!; sleep 1
  timeout 120 $TR --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29720 $G/train.py > $R/020/console.log 2>&1; echo "020 rc=$?"; kill $BP; }
r024(){ w 024; SCALER=1 FAULT=overflow FAULT_RANK=0 FAULT_STEP=6 STEPS=60 LOGFMT=logging timeout 120 $TR --nproc-per-node 2 --master-port 29724 $G/train.py > $R/024/console.log 2>&1; echo "024 rc=$?"; }
r025(){ w 025; FAULT=diverge FAULT_STEP=10 LR=0.01 LR2=2.0 STEPS=60 timeout 120 $TR --nproc-per-node 2 --master-port 29725 $G/train.py > $R/025/console.log 2>&1; echo "025 rc=$?"; }
r026(){ w 026; mkdir -p $W/ckpt; mount -t tmpfs -o size=256k tmpfs $W/ckpt; WIDTH=2048 STEPS=30 CKPT_EVERY=10 CKPT_DIR=$W/ckpt timeout 120 $TR --nproc-per-node 2 --master-port 29726 --tee 3 $G/train.py > $R/026/console.log 2>&1; echo "026 rc=$?"; umount $W/ckpt; }
r027(){ w 027; mkdir -p $W/ckpt; chmod 755 $W/ckpt; chmod 777 $W; CKPT_EVERY=5 STEPS=20 CKPT_DIR=$W/ckpt/run27 timeout 120 runuser -u nobody -- env HOME=/tmp $TR --nproc-per-node 2 --master-port 29727 $G/train.py > $R/027/console.log 2>&1; echo "027 rc=$?"; }
r031(){ w 031; FAULT=ckpt_timeout FAULT_RANK=2 FAULT_STEP=9 CKPT_EVERY=5 STEPS=20 CKPT_DIR=$W/ckpt TMO=30 CK_DEADLINE=8 LOGFMT=prefix timeout 150 $TR --nproc-per-node 3 --master-port 29731 $G/train.py > $R/031/console.log 2>&1; echo "031 rc=$?"; }
r036(){ w 036; FAULT=segv FAULT_RANK=2 FAULT_STEP=11 STEPS=25 timeout 120 $TR --nproc-per-node 3 --master-port 29736 --log-dir $W/logs --redirects 3 $G/train.py > $W/torchrun.log 2>&1; echo "036 rc=$?"; mkdir -p $W/pack; cp -r $W/logs $W/pack/; cp $W/torchrun.log $W/pack/; (cd $W/pack && zip -qr $R/036/job036_logs.zip .); }
r041(){ w 041; FAULT=nan FAULT_RANK=3 FAULT_STEP=4 STEPS=20 TMO=15 timeout 150 $TR --nproc-per-node 4 --max-restarts 1 --master-port 29741 --tee 3 $G/train.py > $R/041/console.log 2>&1; echo "041 rc=$?"; }
r042(){ w 042; mkdir -p $W/ckpt; mount -t tmpfs -o size=300k tmpfs $W/ckpt; WIDTH=1024 RESUME_LATEST=1 FAULT_ATTEMPT=0 STEPS=40 CKPT_EVERY=8 CKPT_DIR=$W/ckpt timeout 150 $TR --nproc-per-node 2 --max-restarts 1 --master-port 29742 $G/train.py > $R/042/console.log 2>&1; echo "042 rc=$?"; ls -la $W/ckpt; umount $W/ckpt; }
r046(){ w 046; export FAULT=data_error FAULT_RANK=2 FAULT_STEP=9 STEPS=20 LOGFMT=prefix TMO=20
  timeout 150 $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29746 $G/train.py > $R/046/node0_torchrun.log 2>&1 &
  timeout 150 $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29746 $G/train.py > $R/046/node1_torchrun.log 2>&1; echo "046 rc=$?"; wait; unset FAULT FAULT_RANK FAULT_STEP STEPS LOGFMT TMO; }
for r in "$@"; do r$r; done
