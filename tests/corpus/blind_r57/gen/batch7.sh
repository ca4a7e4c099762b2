#!/usr/bin/env bash
# frameworks: Lightning, HF Trainer, accelerate; scheduler
source "$(dirname "$0")/common.sh"
r031() { newrun 031; FAIL=val_dtype TARGET=1 MASTER_PORT=29531 timeout 180 $PY $G/lit.py > lightning.log 2>&1; }
r032() { newrun 032; MASTER_PORT=29532 timeout 180 $PY $G/lit.py > lightning.log 2>&1; }
r033() { newrun 033; OUT=$W/hf33 timeout 180 $TR --nproc-per-node 2 --master-port 29533 $G/hf.py > train.log 2>&1; }
r034() { newrun 034; SCEN=alloc TARGET=1 AT=2 FMT=logging timeout 120 $ACC launch --multi_gpu --num_processes 2 --num_machines 1 --main_process_port 29534 --mixed_precision no --dynamo_backend no $G/worker.py > accelerate.log 2>&1; }
r035() { newrun 035; SCEN=retry FMT=logging ALLLOG=1 timeout 120 $ACC launch --multi_gpu --num_processes 3 --num_machines 1 --main_process_port 29535 --mixed_precision no --dynamo_backend no $G/worker.py > accelerate.log 2>&1; }
"$@"
