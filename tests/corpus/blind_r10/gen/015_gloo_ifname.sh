#!/bin/bash
# node 1 is a newer SKU whose NIC is named ens5, but the site env module still exports GLOO_SOCKET_IFNAME=ib0
R=/work/blind/r10/runs/015_gloo_ifname; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1
TR="/work/blind/venv/bin/torchrun --nnodes 2 --master-addr 127.0.0.1 --master-port 30115 --log-dir $R/node_logs --tee 3"
GLOO_SOCKET_IFNAME=lo timeout 90 $TR --nproc-per-node 2 --node-rank 0 /work/blind/r10/gen/015_gloo_ifname.py > $R/launcher-node0.out 2>&1 &
GLOO_SOCKET_IFNAME=ib0 timeout 90 $TR --nproc-per-node 1 --node-rank 1 /work/blind/r10/gen/015_gloo_ifname.py > $R/launcher-node1.out 2>&1
echo "node1 rc=$?"
wait; echo "node0 rc=$?"
