#!/bin/bash
# torchrun --nproc_per_node=3 with TORCH_FR_BUFFER_SIZE; console -> torchrun.log; FR dumps -> fr/rank_N
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/015_eval_allreduce_skipped_fr; rm -rf $D; mkdir -p $D/fr; cd $D
TORCH_FR_BUFFER_SIZE=2000 TORCH_FR_DUMP_TEMP_FILE=$D/fr/rank_ OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/torchrun --nproc_per_node=3 --master_port=27150 $G/train_015.py > torchrun.log 2>&1
echo "rc=$?"
