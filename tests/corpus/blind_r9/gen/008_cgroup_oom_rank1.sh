#!/bin/bash
# the job runs in a memory cgroup of 1.5 GB (like a Slurm/k8s memory limit); rank 1 leaks until the kernel OOM-kills it
R=/work/blind/r9/runs/008_cgroup_oom_rank1; rm -rf $R; mkdir -p $R; cd $R
PARENT=/sys/fs/cgroup/memory$(grep memory /proc/self/cgroup | cut -d: -f3)
CG=$PARENT/r9_008; rmdir $CG 2>/dev/null; mkdir $CG
echo $((1500*1024*1024)) > $CG/memory.limit_in_bytes
export OMP_NUM_THREADS=1
NDMESG=$(dmesg | wc -l)
bash -c "echo \$\$ > $CG/cgroup.procs; exec timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 3 --master-port 30009 /work/blind/r9/gen/008_cgroup_oom_rank1.py" > $R/job.log 2>&1
echo "exit=$?" >> $R/job.log
dmesg -T | tail -n +$((NDMESG+1)) > $R/dmesg_excerpt.txt
sleep 1; rmdir $CG
