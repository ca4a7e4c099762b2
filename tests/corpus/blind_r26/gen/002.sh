#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 002_2node_cgroup_oom
python $R/gen/mkdata.py data 4 --n 2000
CG=/sys/fs/cgroup/memory/blind26_002
rmdir $CG 2>/dev/null; mkdir $CG; echo $((1400*1024*1024)) > $CG/memory.limit_in_bytes
N0=$(dmesg | wc -l)
ARGS="--nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31020 --rdzv-id job002 --local-addr 127.0.0.1"
onnode gpu-st-p4d-001 torchrun $ARGS $T --data data --steps 120 --log-every 10 --fault host_leak --fault-rank 3 --fault-step 30 > $RUN/node0.log 2>&1 &
sleep 2
# node 1 runs inside a memory-limited cgroup (the job's allocation on that host)
sh -c "echo \$\$ > $CG/cgroup.procs; exec unshare --uts sh -c 'hostname gpu-st-p4d-002; exec torchrun $ARGS $T --data data --steps 120 --log-every 10 --fault host_leak --fault-rank 3 --fault-step 30'" > $RUN/node1.log 2>&1
wait
dmesg -T | tail -n +$((N0+1)) > $RUN/dmesg_gpu-st-p4d-002.txt
cat $CG/memory.failcnt; rmdir $CG
