#!/bin/bash
# mp.spawn, 4 ranks, ulimit -n 256; rank 3's dataset opens a side file per sample and never closes it -> EMFILE
NAME=014_emfile_rank3; source /work/blind/r16/gen/common.sh
S=/work/blind/r16/mnt/014_side; mkdir -p $S; for i in $(seq 0 999); do echo x > $S/r3_$i.bin; done
ulimit -n 256
MASTER_PORT=21014 FAULT=emfile FAULT_RANK=3 SIDE_DIR=$S STEPS=80 LOGFMT=plain \
  $PY $GEN/spawn_launch.py 4 > run.log 2>&1
rm -rf $S
