#!/bin/bash
source /work/blind/r60/gen/lib.sh
cd /tmp
D=$(mk 063); rm -rf /tmp/b60lit; LMODE=val_exc FAIL_RANK=1 NDEV=3 PBAR=0 MASTER_PORT=29863 $PY $G/lit.py > $D/console.log 2>&1; echo "063 rc=$?"
echo batch8 done
D=$(mk 064); rm -rf /tmp/b60hf; HMODE=healthy $TR --nproc-per-node 2 --master-port 29864 $G/hf.py > $D/console.log 2>&1; echo "064 rc=$?"
