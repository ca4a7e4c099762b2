#!/bin/bash
# output dir is a 1 MB tmpfs (an almost-full volume); unmounted afterwards
D=/work/blind/r4/runs/007_ckpt_tmp; mkdir -p $D; cd $D
M=/work/blind/r4/mnt/007; mkdir -p $M; mount -t tmpfs -o size=1M tmpfs $M
export OUT_DIR=$M
timeout 90 /work/blind/venv/bin/python -m torch.distributed.run --nproc_per_node 2 --master_port 29671 /work/blind/r4/gen/007_ckpt_tmp.py > console.log 2>&1
echo "exit $?" >&2
umount $M
