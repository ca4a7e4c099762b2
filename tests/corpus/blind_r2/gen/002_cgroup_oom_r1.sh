#!/bin/bash
# torchrun, 3 workers, plain console, whole job in a 1.6 GB memory cgroup (like a container limit).
set -u
RUN=/work/blind/r2/runs/002_cgroup_oom_r1
rm -rf $RUN; mkdir -p $RUN; cd $RUN
CG=/sys/fs/cgroup/memory/blindr2_job002
rmdir $CG 2>/dev/null; mkdir -p $CG
echo $((1600*1024*1024)) > $CG/memory.limit_in_bytes
export OMP_NUM_THREADS=1
dmesg | wc -l > /tmp/blindr2_002_dmesg_start
bash -c "echo \$\$ > $CG/cgroup.procs; exec /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 29612 /work/blind/r2/gen/002_cgroup_oom_r1.py" > console.log 2>&1
echo "exit code $?"
# what the on-call engineer gets from `dmesg -T` on the node afterwards
dmesg | tail -n +$(( $(cat /tmp/blindr2_002_dmesg_start) + 1 )) | grep -E "oom|Out of memory|Killed process|invoked" > dmesg.txt
