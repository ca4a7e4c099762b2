#!/bin/bash
R=/work/blind/r58/gen/run.sh
# 006 host OOM via a memory cgroup (v1) around the whole torchrun; dmesg captured
CG=/sys/fs/cgroup/memory/blind58_oom; mkdir -p $CG; echo 2G > $CG/memory.limit_in_bytes
n0=$(dmesg | wc -l)
$R 006 "bash -c 'echo \$\$ > $CG/cgroup.procs; exec torchrun --nproc-per-node 3 --master-port 29506 --log-dir tr_logs \$T --mode host_oom --bad 1 --fmt logging'"
dmesg | tail -n +$((n0+1)) > /work/blind/r58/runs/006/dmesg.txt
rmdir $CG
# 028 checkpoint to a tiny tmpfs -> ENOSPC
mkdir -p /mnt/ckpt_b58; mount -t tmpfs -o size=4m tmpfs /mnt/ckpt_b58
$R 028 'torchrun --nproc-per-node 3 --master-port 29528 --log-dir tr_logs $T --mode ckpt_enospc --fmt print --ckdir /mnt/ckpt_b58/run1 --at 4; '
umount /mnt/ckpt_b58
# 029 one rank's shard truncated
$R 029 'mkdir -p ckpt; for r in 0 1 2 3; do python -c "import torch;torch.save({\"exp_avg\":torch.randn(4096)},\"ckpt/shard_rank$r.pt\")"; done; truncate -s 9000 ckpt/shard_rank2.pt; torchrun --nproc-per-node 4 --master-port 29529 $T --mode ckpt_corrupt --fmt logging --ckdir $PWD/ckpt; rm -rf ckpt'
# 030 state dict from a different architecture (all ranks)
$R 030 'mkdir -p ckpt; python -c "import torch,torch.nn as nn;torch.save(nn.Sequential(nn.Linear(16,64),nn.ReLU(),nn.Linear(64,4)).state_dict(),\"ckpt/model_step1000.pt\")"; python $T --spawn 2 --port 29530 --mode ckpt_load_mismatch --fmt print --ckdir $PWD/ckpt; rm -rf ckpt'
$R 031 'torchrun --nproc-per-node 3 --master-port 29531 $T --mode thread_crash --bad 1 --fmt logging'
$R 032 'torchrun --nproc-per-node 3 --master-port 29532 --tee 3 $T --mode emfile --bad 2 --fmt print'
$R 033 'HF_HUB_ETAG_TIMEOUT=5 HF_HUB_DOWNLOAD_TIMEOUT=5 torchrun --nproc-per-node 2 --master-port 29533 $T --mode hub --fmt logging'
$R 034 'torchrun --nproc-per-node 2 --master-port 29534 $T --mode import_missing --fmt print'
$R 035 'torchrun --nproc-per-node 3 --master-port 29535 $T --mode dtype --bad 1 --fmt json'
# 023 rendezvous never completes: --nnodes 2 but only one agent
$R 023 'torchrun --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29623 --rdzv-id job23 --rdzv-conf join_timeout=25 $T --mode none --fmt print'
# 025 port already in use (torchrun static rendezvous)
python -c "import socket,time;s=socket.socket();s.bind((\"0.0.0.0\",29525));s.listen();time.sleep(120)" & SQ=$!
sleep 1
$R 025 'torchrun --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29525 $T --mode none --fmt print'
kill $SQ
# 026 port in use with mp.spawn (rank 0 hosts the TCPStore)
python -c "import socket,time;s=socket.socket();s.bind((\"0.0.0.0\",29526));s.listen();time.sleep(120)" & SQ=$!
sleep 1
$R 026 'python $T --spawn 3 --port 29526 --timeout 20 --mode none --fmt plain'
kill $SQ
