#!/bin/bash
# usage: run_tr.sh NNN NPROC MODE CKDIR [logdir|console]  (env passes through)
N=$1; P=$2; M=$3; CK=$4; K=${5:-console}
R=/work/blind/r55/set/runs/$N; mkdir -p $R
cd /tmp/r55w && \
if [ "$K" = logdir ]; then
  timeout 110 /work/blind/torchenv/bin/torchrun --nproc-per-node $P --log-dir $R/torchrun_logs --redirects 3 --tee 3 \
    /work/blind/r55/set/gen/fw_torch.py $M $CK > $R/console.log 2>&1
else
  timeout 110 /work/blind/torchenv/bin/torchrun --nproc-per-node $P /work/blind/r55/set/gen/fw_torch.py $M $CK > $R/console.log 2>&1
fi
echo "rc=$?" > /tmp/r55w/rc_$N
