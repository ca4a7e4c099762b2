source /work/blind/r63/gen/common.sh
r019() { rd 019; $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29619 --rdzv-id job019 --rdzv-conf join_timeout=25 $G/ddp.py > node0.log 2>&1; }
r020() { rd 020; export FAULT=eval_keyerror FAULT_RANK=3 STEPS=12 PG_TIMEOUT=20;
  $TR --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29620 $G/ddp.py > node0.log 2>&1 &
  sleep 1; $TR --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29620 $G/ddp.py > node1.log 2>&1; wait; }
r027() { rd 027; FAULT=mismatch FAULT_RANK=1 FAULT_STEP=3 PG_TIMEOUT=15 $TR --nproc-per-node 3 --master-port 29627 $G/ddp.py > console.log 2>&1; }
r043() { rd 043; mkdir -p /tmp/tfs043; mount -t tmpfs -o size=8k tmpfs /tmp/tfs043; FAULT=none SAVE_EVERY=5 CKPT_DIR=/tmp/tfs043 STEPS=12 $TR --nproc-per-node 2 --master-port 29643 $G/ddp.py > console.log 2>&1; umount /tmp/tfs043; }
r044() { rd 044; rm -rf /tmp/ck044; mkdir -p /tmp/ck044; $PY -c "
import torch,torch.nn as nn
m=nn.Sequential(nn.Linear(16,64),nn.ReLU(),nn.Linear(64,1)); torch.save({'model':m.state_dict(),'step':1200},'/tmp/ck044/last.pt')";
  FAULT=ckpt_load_mismatch CKPT_DIR=/tmp/ck044 SPAWN=3 MASTER_PORT=29644 PG_TIMEOUT=15 $PY $G/ddp.py > console.log 2>&1; }
r045() { rd 045; rm -rf /tmp/ck045 /tmp/l045; mkdir -p /tmp/ck045; $PY -c "
import torch,torch.nn as nn
torch.manual_seed(0); m=nn.Sequential(nn.Linear(16,32),nn.ReLU(),nn.Linear(32,1))
for r in range(3): torch.save(m.state_dict(),f'/tmp/ck045/shard_rank{r}.pt')
import os; p='/tmp/ck045/shard_rank2.pt'; d=open(p,'rb').read(); open(p,'wb').write(d[:len(d)//2])";
  FAULT=ckpt_corrupt CKPT_DIR=/tmp/ck045 $TR --nproc-per-node 3 --master-port 29645 --log-dir /tmp/l045 --redirects 3 $G/ddp.py > launcher.log 2>&1; cp -r /tmp/l045 logs; }
r046() { rd 046; FAULT=gradscaler_recover STEPS=20 $TR --nproc-per-node 2 --master-port 29646 $G/ddp.py > console.log 2>&1; }
r047() { rd 047; FAULT=scale_collapse STEPS=60 LOGFMT=logging $TR --nproc-per-node 2 --master-port 29647 $G/ddp.py > console.log 2>&1; }
r048() { rd 048; FAULT=diverge FAULT_STEP=10 STEPS=40 LOGFMT=json $TR --nproc-per-node 2 --master-port 29648 $G/ddp.py > console.log 2>&1; }
r049() { rd 049; FAULT=device FAULT_RANK=1 FAULT_STEP=2 SPAWN=2 MASTER_PORT=29649 $PY $G/ddp.py > console.log 2>&1; }
r050() { rd 050; FAULT=bad_iface FAULT_RANK=1 PG_TIMEOUT=20 $TR --nproc-per-node 3 --master-port 29650 $G/ddp.py > console.log 2>&1; }
r051() { rd 051; FAULT=retry LOGFMT=json SPAWN=2 MASTER_PORT=29651 $PY $G/ddp.py > console.log 2>&1; }
r052() { rd 052; FAULT=shutdown_err FAULT_RANK=2 STEPS=10 $TR --nproc-per-node 3 --master-port 29652 --tee 3 $G/ddp.py > console.log 2>&1; }
r053() { rd 053; FAULT=eval_keyerror FAULT_RANK=1 STEPS=10 SPAWN=2 MASTER_PORT=29653 LOGFMT=logging $PY $G/ddp.py > console.log 2>&1; }
r054() { rd 054; FAULT=ext_import EXT_DIR=/tmp/ext054 $TR --nproc-per-node 2 --master-port 29654 $G/ddp.py > console.log 2>&1; }
r055() { rd 055; unshare -m bash -c "mount -t tmpfs -o size=1m tmpfs /dev/shm; FAULT=dl_shm PG_TIMEOUT=20 $TR --nproc-per-node 2 --master-port 29655 $G/ddp.py" > console.log 2>&1; }
r056() { rd 056; rm -rf /tmp/ck056; mkdir -p /tmp/ck056; mkfifo /tmp/ck056/step10.pt; FAULT=ckpt_async_timeout SAVE_EVERY=10 CKPT_DIR=/tmp/ck056 PG_TIMEOUT=30 LOGFMT=logging $TR --nproc-per-node 2 --master-port 29656 $G/ddp.py > console.log 2>&1; }
"$@"
