#!/bin/bash
# the checkpoint volume (a 14 MB tmpfs here) is nearly full: an old job's step_000040 is still there
R=/work/blind/r13/runs/022_zero_shard_enospc
C=/tmp/r13_022_ckpt
rm -rf $R && mkdir -p $R $C && cd $R
mount -t tmpfs -o size=14m tmpfs $C
mkdir -p $C/old_job_991 && head -c 8500000 /dev/urandom > $C/old_job_991/step_012000.pt
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 3 --master-port 33022 --log-dir $R/elastic --tee 1 \
  /work/blind/r13/gen/022_zero_shard_enospc.py > $R/console.log 2>&1
echo "torchrun exit $?" >> $R/console.log
df -h $C > /tmp/r13_022_df.txt
umount $C; rmdir $C
