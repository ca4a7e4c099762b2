#!/bin/bash
# torchrun, 2 workers, console only; checkpoint dir on a 1 MB tmpfs.
set -u
RUN=/work/blind/r2/runs/005_ckpt_disk_full_r0; FULL=/work/blind/r2/full005
rm -rf $RUN; mkdir -p $RUN $FULL; cd $RUN
mountpoint -q $FULL && umount $FULL
mount -t tmpfs -o size=1M tmpfs $FULL
export OMP_NUM_THREADS=1
/work/blind/venv/bin/torchrun --nproc-per-node 2 --master-port 29615 /work/blind/r2/gen/005_ckpt_disk_full_r0.py > console.log 2>&1
echo "exit code $?"
df -h $FULL; ls -la $FULL/ckpt
umount $FULL
