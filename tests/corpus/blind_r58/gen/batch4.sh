#!/bin/bash
R=/work/blind/r58/gen/run.sh
# 054 checkpoint to a tiny tmpfs -> ENOSPC (dir exists this time)
mkdir -p /mnt/ckpt_b58; mount -t tmpfs -o size=4m tmpfs /mnt/ckpt_b58
$R 054 'torchrun --nproc-per-node 3 --master-port 29554 --log-dir tr_logs --redirects 3 $T --mode ckpt_enospc --fmt lognorank --ckdir /mnt/ckpt_b58 --at 4'
umount /mnt/ckpt_b58
# 055 "node 0" (agent + its 2 workers, store host) vanishes mid-run; only node 1's log survives
$R 055 'setsid torchrun --nnodes 2 --node-rank 0 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29555 $T --mode none --steps 80 --sleep 0.3 --fmt logging > node0.log 2>&1 & P0=$!; sleep 1; torchrun --nnodes 2 --node-rank 1 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29555 $T --mode none --steps 80 --sleep 0.3 --fmt logging > node1.log 2>&1 & P1=$!; sleep 16; kill -9 -- -$P0; wait $P1'
