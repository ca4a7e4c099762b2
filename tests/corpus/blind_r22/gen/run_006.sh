#!/bin/bash
# torchrun --log-dir logs --redirects 3 ; console (agent only) -> launcher.log
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/006_bincount_shape_mismatch; rm -rf $D; mkdir -p $D; cd $D
TORCH_DISTRIBUTED_DEBUG=DETAIL OMP_NUM_THREADS=1 timeout 150 /work/blind/venv/bin/torchrun --nproc_per_node=3 --master_port=27060 --log-dir logs --redirects 3 $G/train_006.py > launcher.log 2>&1
echo "rc=$?"
