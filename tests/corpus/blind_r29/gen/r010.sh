source /work/blind/r29/gen/lib.sh; mk 010; cd $RAW/010
# rank 3 in a memory cgroup (limit 600M); replay buffer grows 64MB/step -> kernel OOM killer; console + dmesg
CG=/sys/fs/cgroup/memory/blindr29_run010; mkdir -p $CG; echo $((600*1024*1024)) > $CG/memory.limit_in_bytes; echo 0 > $CG/memory.swappiness 2>/dev/null
dmesg > dmesg_before.txt
LOGLEVEL=DEBUG FAULT=cgroup_oom CGROUP_DIR=$CG FAULT_RANK=3 FAULT_STEP=1010 EPOCHS=3 STEPS=400 LOG_EVERY=3 CKPT_DIR=$RAW/010/ckpt \
  timeout 170 $TR --nnodes 1 --nproc-per-node 4 --master-port 35100 $T > console.log 2>&1; echo "rc=$?" > rc
dmesg > dmesg_after.txt; cat $CG/memory.failcnt > failcnt
cp console.log $RUNS/010/console.log
diff dmesg_before.txt dmesg_after.txt | grep '^>' | sed 's/^> //' > $RUNS/010/dmesg.txt
rmdir $CG
