#!/bin/bash
# torchrun 4 procs, --max-restarts 1, inside a memory cgroup (v1) limited to 2200 MB (the "job" limit).
# The run dir holds torchrun's console and the kernel's OOM lines for this cgroup (dmesg, trimmed to them).
set -u
source /work/blind/r24/gen/common.sh
N=017_cgroup_oom_recurs; W=$R/work/j017; OUT=$W/out; FINAL=$R/runs/$N; CG=/sys/fs/cgroup/memory/blind24_017
rm -rf $FINAL $W; mkdir -p $OUT $W; cd $W
rmdir $CG 2>/dev/null; mkdir -p $CG; echo 2200M > $CG/memory.limit_in_bytes
dmesg > $W/dmesg.before
bash -c "echo \$\$ > $CG/cgroup.procs; exec timeout 200 $TORCHRUN --nproc-per-node 4 --max-restarts 1 --rdzv-backend c10d \
  --rdzv-endpoint localhost:29117 --rdzv-id job017 $R/gen/s017.py" > $OUT/torchrun_console.log 2>&1
echo rc=$?
dmesg > $W/dmesg.after
cat $CG/memory.oom_control
# keep only new kernel lines about this cgroup's OOM kills (the user's `dmesg | grep -i -A1 oom` paste)
diff $W/dmesg.before $W/dmesg.after | sed -n 's/^> //p' > $W/dmesg.new
PIDS=$(grep -o 'task_memcg=/blind24_017,task=[a-z0-9]*,pid=[0-9]*' $W/dmesg.new | sed 's/.*pid=//' | sort -u)
PAT="blind24_017"; for p in $PIDS; do PAT="$PAT\|Killed process $p \|oom_reaper: reaped process $p "; done
grep "$PAT" $W/dmesg.new > $OUT/dmesg_oom.txt
rmdir $CG
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
