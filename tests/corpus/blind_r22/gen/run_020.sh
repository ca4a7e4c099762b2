#!/bin/bash
# torchrun --nproc_per_node=4 --log-dir tl --redirects 3 under ulimit -n 256; console -> launcher.txt
set -u; G=/work/blind/r22/gen; W=/work/blind/r22/work/data020; D=/work/blind/r22/runs/020_fd_leak_rank3; rm -rf $D $W; mkdir -p $D; cd $D
for r in 0 1 2 3; do mkdir -p $W/r$r; for i in $(seq 0 49); do head -c 256 /dev/urandom > $W/r$r/part-$(printf %04d $i).bin; done; done
ulimit -n 256
DATA_DIR=$W OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/torchrun --nproc_per_node=4 --master_port=27200 --log-dir tl --redirects 3 $G/train_020.py > launcher.txt 2>&1
echo "rc=$?"
