#!/bin/bash
# Lane A: torchrun / mp.spawn runs. Usage: laneA.sh [run ...]
export PATH=/work/blind/torchenv/bin:$PATH
G=/work/blind/r66/gen; R=/work/blind/r66/runs
T="torchrun --nproc-per-node"
prep() { rm -rf $R/$1; mkdir -p $R/$1; cd $R/$1; }
run() {
case $1 in
001) prep 001; $T 3 --master-port 29701 $G/train.py > console.log 2>&1 ;;
002) prep 002; STEPS=40 STEP_SLEEP=0.05 LOGFMT=logging $T 2 --master-port 29702 $G/train_warn.py > train.log 2>&1 ;;
003) prep 003; FAULT=data FAULT_RANK=1 FAULT_STEP=2 $T 3 --master-port 29703 --log-dir /tmp/r66_003 --redirects 3 --tee 3 $G/train.py > console.log 2>&1; cp -r /tmp/r66_003 torchrun_logs; rm -rf /tmp/r66_003 ;;
004) prep 004; FAULT=oom FAULT_RANK=2 FAULT_STEP=4 $T 3 --master-port 29704 $G/train.py > console.log 2>&1 ;;
005) prep 005; FAULT=nan FAULT_RANK=1 FAULT_STEP=3 LOGFMT=json $T 2 --master-port 29705 $G/train.py > stdout.jsonl 2> stderr.log ;;
006) prep 006; FAULT=sleep FAULT_RANK=2 FAULT_STEP=3 PG_TIMEOUT=15 $T 4 --master-port 29706 $G/train.py > console.log 2>&1 ;;
007) prep 007; FAULT=segv FAULT_RANK=1 FAULT_STEP=2 $T 3 --master-port 29707 --log-dir /tmp/r66_007 --redirects 3 $G/train.py > console.log 2>&1; cp -r /tmp/r66_007 logs; rm -rf /tmp/r66_007 ;;
008) prep 008; FAULT=abort FAULT_RANK=0 FAULT_STEP=5 MASTER_ADDR=127.0.0.1 MASTER_PORT=29708 python $G/spawn.py 3 > output.txt 2>&1 ;;
010) prep 010; FAULT=mismatch FAULT_RANK=1 FAULT_STEP=2 TORCH_DISTRIBUTED_DEBUG=DETAIL $T 3 --master-port 29710 $G/train.py > console.log 2>&1 ;;
011) prep 011; FAULT=uneven FAULT_RANK=2 FAULT_STEP=3 STEPS=6 PG_TIMEOUT=15 LOGFMT=logging $T 3 --master-port 29711 $G/train.py > console.log 2>&1 ;;
012) prep 012; FAULT=exit0 FAULT_RANK=1 FAULT_STEP=4 PG_TIMEOUT=20 $T 3 --master-port 29712 $G/train.py > console.log 2>&1 ;;
013) prep 013; python -c "import socket,time;s=socket.socket();s.bind(('0.0.0.0',29713));s.listen();time.sleep(40)" & sleep 1; $T 2 --master-port 29713 $G/train.py > console.log 2>&1; kill %1 ;;
014) prep 014; timeout 120 torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29714 --rdzv-id job14 --rdzv-conf join_timeout=20 --node-rank 0 $G/train.py > node0.log 2>&1 ;;
015) prep 015; for n in 0 1; do torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29715 --rdzv-id job15 --max-restarts 0 $G/train.py > node$n.log 2>&1 & sleep 2; done; wait ;;
016) prep 016; for n in 0 1; do FAULT=shape FAULT_RANK=3 FAULT_STEP=4 torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29716 --rdzv-id job16 $G/train.py > node$n.log 2>&1 & sleep 2; done; wait ;;
019) prep 019; FAULT=ckpt_corrupt CKPT_DIR=/tmp/r66_019ckpt MASTER_ADDR=127.0.0.1 MASTER_PORT=29719 LOGFMT=logging_norank python $G/spawn.py 2 > output.txt 2>&1; rm -rf /tmp/r66_019ckpt ;;
027) prep 027; HF_HUB_OFFLINE=0 $T 2 --master-port 29727 $G/hf_load.py > console.log 2>&1 ;;
028) prep 028; FAULT=files FAULT_RANK=2 FAULT_STEP=1 $T 3 --master-port 29728 $G/train.py > console.log 2>&1; rm -f /tmp/r66shard_* ;;
029) prep 029; FAULT=restart_once FAULT_RANK=1 FAULT_STEP=2 $T 2 --max-restarts 1 --master-port 29729 $G/train.py > console.log 2>&1 ;;
030) prep 030; FAULT=oom FAULT_RANK=0 FAULT_STEP=2 $T 2 --max-restarts 1 --master-port 29730 $G/train.py > console.log 2>&1 ;;
033) prep 033; FAULT=eval_error FAULT_RANK=1 STEPS=5 $T 3 --master-port 29733 $G/train.py > console.log 2>&1 ;;
034) prep 034; FAULT=dtype FAULT_RANK=1 FAULT_STEP=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=29734 python $G/spawn.py 2 > output.txt 2>&1 ;;
036) prep 036; MASTER_ADDR=127.0.0.1 MASTER_PORT=29736 python $G/spawn.py 2 > output.txt 2>&1 ;;
024) prep 024; NW=0 python $G/lit.py > lightning.log 2>&1 ;;
025) prep 025; FAULT=worker_kill FAULT_RANK=1 NW=2 python $G/lit.py > lightning.log 2>&1 ;;
026) prep 026; $T 2 --master-port 29726 $G/hf_train.py > train.log 2>&1; rm -rf /tmp/r66_hf_out ;;
037) prep 037; rm -rf /tmp/r66_037; mkdir -p /tmp/r66_037; FAULT=data FAULT_RANK=2 FAULT_STEP=5 LOGFMT=logging $T 4 --master-port 29737 --log-dir /tmp/r66_037/logs --redirects 3 $G/train_rec.py > /tmp/r66_037/console.log 2>&1 || true; (cd /tmp/r66_037 && tar czf $R/037/job_logs.tar.gz .); rm -rf /tmp/r66_037 ;;
038) prep 038; LR=3 STEPS=25 STEP_SLEEP=0.05 $T 2 --master-port 29738 $G/train.py > console.log 2>&1 ;;
039) prep 039; FAULT=sleep FAULT_RANK=1 FAULT_STEP=4 PG_TIMEOUT=12 MASTER_ADDR=127.0.0.1 MASTER_PORT=29739 LOGFMT=logging python $G/spawn.py 3 > output.txt 2>&1 ;;
040) prep 040; FAULT=mismatch FAULT_RANK=2 FAULT_STEP=3 PG_TIMEOUT=15 $T 3 --master-port 29740 $G/train.py > console.log 2>&1 ;;
041) prep 041; mkdir -p /tmp/r66_041ck; ln -sf /dev/full /tmp/r66_041ck/step2.pt; FAULT=ckpt_full FAULT_RANK=0 FAULT_STEP=2 SAVE_FOBJ=1 CKPT_DIR=/tmp/r66_041ck MASTER_ADDR=127.0.0.1 MASTER_PORT=29741 LOGFMT=logging python $G/spawn.py 2 > output.txt 2>&1; rm -rf /tmp/r66_041ck ;;
042) prep 042; FAULT=restart_once FAULT_RANK=2 FAULT_STEP=4 LOGFMT=logging $T 3 --max-restarts 2 --master-port 29742 $G/train.py > console.log 2>&1 ;;
esac
}
for r in "$@"; do echo "== $r $(date +%T)"; run $r; echo "== $r done rc=$? $(date +%T)"; done
