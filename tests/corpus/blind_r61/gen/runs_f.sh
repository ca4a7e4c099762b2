#!/bin/bash
source /work/blind/r61/gen/lib.sh
# 028 (redo; accelerate --cpu ran a single process only) torchrun --tee 3: dtype mismatch on rank 1 at first step
rm -rf $R/028; start 028
FAULT=dtype FRANK=1 FSTEP=1 LOGFMT=plain $TR --nproc-per-node 2 --master-port 29628 --tee 3 $T > $R/028/console.log 2>&1; done_ $?
# 044 (redo; accelerate) Lightning ddp 2 procs, healthy (Lightning warnings)
rm -rf $R/044; start 044
MASTER_PORT=29644 $PY /work/blind/r61/gen/lit.py > $R/044/console.log 2>&1; done_ $?
