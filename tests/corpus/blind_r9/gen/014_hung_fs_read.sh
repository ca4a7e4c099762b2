#!/bin/bash
R=/work/blind/r9/runs/014_hung_fs_read; rm -rf $R; mkdir -p $R; cd $R
S=$R/mnt_shared; mkdir -p $S/rank0 $S/rank1
for r in 0 1; do for i in 0 1 2 3 4; do head -c 8192 /dev/urandom > $S/rank$r/shard-0000$i.bin; done; done
rm $S/rank1/shard-00001.bin; mkfifo $S/rank1/shard-00001.bin      # the hung NFS read
export OMP_NUM_THREADS=1 SHARD_ROOT=$S
timeout 90 /work/blind/venv/bin/torchrun --standalone --nproc-per-node 2 --master-port 30015 --tee 3 /work/blind/r9/gen/014_hung_fs_read.py > $R/train_console.log 2>&1
echo "exit=$?" >> $R/train_console.log
rm -f $S/rank1/shard-00001.bin
