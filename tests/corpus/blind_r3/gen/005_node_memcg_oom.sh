#!/bin/bash
# two torchrun agents (--nnodes 2, static rendezvous on localhost) writing to ONE shared console.
# node 1's agent runs in a cgroup-v1 memory cgroup limited to 1.4 GB.
R=/work/blind/r3/runs/005_node_memcg_oom; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job005; mkdir -p $J; cp /work/blind/r3/gen/005_node_memcg_oom.py $J/train_ae.py
CG=/sys/fs/cgroup/memory/r3job005; mkdir -p $CG; echo $((1400*1024*1024)) > $CG/memory.limit_in_bytes
cd $J
dmesg | wc -l > $J/dmesg_before
TR=/work/blind/venv/bin/torchrun
COMMON="--nnodes 2 --nproc-per-node 2 --master-addr 127.0.0.1 --master-port 29505"
: > $R/console.log
$TR $COMMON --node-rank 0 train_ae.py >> $R/console.log 2>&1 &
P0=$!
bash -c "echo \$\$ > $CG/cgroup.procs; exec $TR $COMMON --node-rank 1 train_ae.py" >> $R/console.log 2>&1 &
P1=$!
wait $P0; echo "node0 exit $?"; wait $P1; echo "node1 exit $?"
# what the on-call engineer pulled from node 1's kernel log
dmesg -T | tail -n +$(( $(cat $J/dmesg_before) + 1 )) | grep -iE "oom|Killed process|memory cgroup|Memory cgroup" > $R/dmesg_node1.txt
sleep 1; rmdir $CG
