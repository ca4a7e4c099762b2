#!/bin/bash
# the job runs inside a 1.5 GB memory cgroup (container memory limit); no swap
R=/work/blind/r13/runs/004_spawn_embed_cache_oom
rm -rf $R && mkdir -p $R/logs && cd $R
CG=/sys/fs/cgroup/memory/r13_004
rmdir $CG 2>/dev/null; mkdir -p $CG
echo $((1700*1024*1024)) > $CG/memory.limit_in_bytes
export OMP_NUM_THREADS=1
bash -c "echo \$\$ > $CG/cgroup.procs; exec timeout 90 /work/blind/venv/bin/python -u /work/blind/r13/gen/004_spawn_embed_cache_oom.py" > $R/launcher.out 2>&1
echo "exit status $?" >> $R/launcher.out
cat $CG/memory.failcnt > /tmp/r13_004_failcnt; grep oom_kill $CG/memory.oom_control >> /tmp/r13_004_failcnt
sleep 1; rmdir $CG
