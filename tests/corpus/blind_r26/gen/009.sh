#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 009_tr_ckpt_enospc
python $R/gen/mkdata.py data 4 --n 2000
mkdir -p $WD/ckpt; mount -t tmpfs -o size=640k tmpfs $WD/ckpt
{ echo "+ df -h $WD/ckpt"; df -h $WD/ckpt; } > $RUN/console.txt
torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31090 --rdzv-id job009 \
  $T --data data --steps 150 --log-every 10 --ckpt-dir $WD/ckpt --ckpt-every 20 >> $RUN/console.txt 2>&1
echo exit $?
ls -la $WD/ckpt; umount $WD/ckpt
