#!/bin/bash
# torchrun, 4 workers, console only; a device-selection bug sends rank 2 to cuda:2 on a CPU-only torch build
NAME=024_cuda_on_cpu_rank2; source /work/blind/r16/gen/common.sh
FAULT=cuda FAULT_RANK=2 STEPS=30 LOGFMT=plain \
  $TORCHRUN --nproc-per-node 4 --master-port 21024 $TRAIN 2>&1 | tee output.log
