#!/bin/bash
source /work/blind/r61/gen/lib.sh
# healthy runs with frightening but harmless text
start 039; LOGFMT=tqdm SCARY=1 $TR --nproc-per-node 3 --master-port 29639 $T > $R/039/console.log 2>&1; done_ $?
start 041; LAUNCH=spawn NPROC=3 MASTER_PORT=29641 LOGFMT=plain SCARY=1 $PY $T > $R/041/console.log 2>&1; done_ $?
start 042
for node in 0 1; do LOGFMT=logging SCARY=1 $TR --nnodes 2 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29642 --rdzv-id job042 $T > $R/042/node$node.log 2>&1 & done; wait; done_ $?
start 043; FAULT=valueerr FRANK=1 FPHASE=startup FAULT_ATTEMPT=0 $TR --nproc-per-node 2 --max-restarts 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29643 $T > $R/043/console.log 2>&1; done_ $?
start 044; LOGFMT=logging SCARY=1 $ACC launch --cpu --num_processes 2 --num_machines 1 --main_process_port 29644 $T > $R/044/console.log 2>&1; done_ $?
start 049; rm -rf /tmp/b61_049; SCARY=1 $TR --nproc-per-node 2 --master-port 29649 --log-dir /tmp/b61_049/torchrun_logs --tee 3 $T > /tmp/b61_049/console.log 2>&1; done_ $?
(cd /tmp/b61_049 && rm -f $R/049/logs.zip && python3 -m zipfile -c $R/049/logs.zip console.log torchrun_logs)
