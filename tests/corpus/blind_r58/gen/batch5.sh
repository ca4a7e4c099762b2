#!/bin/bash
R=/work/blind/r58/gen/run.sh
mkdir -p /tmp/b58_056
$R 056 'torchrun --nproc-per-node 3 --master-port 29556 --max-restarts 1 $T --mode restart_once --bad 1 --fmt print --outdir /tmp/b58_056'
rm -rf /tmp/b58_056
$R 057 'BAD_RANK=1 accelerate launch --multi_gpu --cpu --num_processes 2 --num_machines 1 --mixed_precision no --dynamo_backend no --main_process_port 29557 /work/blind/r58/gen/acc.py'
