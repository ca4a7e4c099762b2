#!/bin/bash
# rank 0's prefetch thread dies on an invalid UTF-8 sample (thread traceback, no rank prefix), main thread blocks on the queue,
# others hit gloo timeout; torchrun --log-dir without tee
source /work/blind/r20/gen/common.sh
D=$R/019_prefetch_pipeline; rm -rf $D; mkdir -p $D; cd $W
S=$W/data019; rm -rf $S; mkdir -p $S
$PY - <<PY
for r in range(3):
    with open(f"$S/part-{r:05d}.txt","wb") as f:
        for i in range(200):
            line = ("sample %d of shard %d: lorem ipsum dolor sit amet\n" % (i, r)).encode()
            if r == 0 and i == 17:
                line = b"sample 17 \xff\xfe\x00garbled latin-1 caf\xe9\n"
            f.write(line)
PY
DATA_DIR=$S FAULT=thread NSTEPS=40 FMT=norank PG_TIMEOUT=20 \
 $TR --nproc-per-node 3 --master-port 25030 --log-dir $D/logs $G/train.py > $D/console.log 2>&1
echo rc=$?
