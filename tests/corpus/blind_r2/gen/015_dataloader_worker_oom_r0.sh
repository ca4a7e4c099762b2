#!/bin/bash
# plain python + mp.spawn, whole job inside a 2.5 GB memory cgroup
set -u
RUN=/work/blind/r2/runs/015_dataloader_worker_oom_r0
rm -rf $RUN; mkdir -p $RUN; cd $RUN
CG=/sys/fs/cgroup/memory/blindr2_job015
rmdir $CG 2>/dev/null; mkdir -p $CG
echo $((2500*1024*1024)) > $CG/memory.limit_in_bytes
export OMP_NUM_THREADS=1
dmesg | wc -l > /tmp/blindr2_015_dmesg_start
bash -c "echo \$\$ > $CG/cgroup.procs; exec /work/blind/venv/bin/python /work/blind/r2/gen/015_dataloader_worker_oom_r0.py" > console.log 2>&1
echo "exit code $?"
# kept for the label's evidence only (not given to the tool)
dmesg | tail -n +$(( $(cat /tmp/blindr2_015_dmesg_start) + 1 )) | grep -E "Killed process|oom-kill:" > /work/blind/r2/gen/015_dmesg_evidence.txt
