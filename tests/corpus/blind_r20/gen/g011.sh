#!/bin/bash
# too many open files: rank 1's shard list is much longer (400 files) than others, job ulimit -n 256; torchrun --redirects 3 --log-dir
source /work/blind/r20/gen/common.sh
D=$R/011_shard_reader; rm -rf $D; mkdir -p $D; cd $W
S=$W/shards011; rm -rf $S; mkdir -p $S
for i in $(seq 0 599); do echo "x" > $S/chunk-$(printf %05d $i).bin; done
ls $S/* | head -60 > $S/rank0.list; ls $S/* | sed -n 61,460p > $S/rank1.list; ls $S/* | sed -n 461,520p > $S/rank2.list
ulimit -n 256
DATA_DIR=$S FAULT=files NSTEPS=30 FMT=plain \
 $TR --nproc-per-node 3 --master-port 25021 --log-dir $D/logs --redirects 3 $G/train.py > $D/torchrun.log 2>&1
echo rc=$?
