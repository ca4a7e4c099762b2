#!/bin/bash
# worker1's checkpoint directory is made a read-only bind mount (like a scratch
# volume that was remounted ro); unmounted afterwards.
D=/work/blind/r4/runs/006_ckpt_scratch; mkdir -p $D; cd $D
M=/work/blind/r4/mnt/006; rm -rf $M; mkdir -p $M/worker0 $M/worker1 $M/worker2
mount --bind $M/worker1 $M/worker1 && mount -o remount,ro,bind $M/worker1
export CKPT_ROOT=$M
timeout 90 /work/blind/venv/bin/torchrun --nproc_per_node 3 --master_port 29661 /work/blind/r4/gen/006_ckpt_scratch.py > console.log 2>&1
echo "exit $?" >&2
umount $M/worker1
