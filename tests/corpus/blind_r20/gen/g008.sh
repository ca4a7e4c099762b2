#!/bin/bash
# rank 1's checkpoint shard comes from a wider model (hidden 48) -> state_dict size mismatch on load; srun without --label
source /work/blind/r20/gen/common.sh
D=$R/008_widen_hidden; rm -rf $D; mkdir -p $D; cd $W
C=$W/ckpt008/step_000020; rm -rf $W/ckpt008; $PY $G/mkckpt.py $C 3 32; $PY $G/mkckpt.py $W/ckpt008/old 3 48; cp $W/ckpt008/old/shard_01.pt $C/shard_01.pt
export MASTER_ADDR=127.0.0.1 MASTER_PORT=25018 RESUME=$C NSTEPS=25 FMT=json
srun -n3 --overcommit -J widen $PY $G/train.py > $D/job.log 2>&1
echo rc=$?
