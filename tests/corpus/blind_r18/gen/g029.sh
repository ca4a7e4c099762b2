#!/bin/bash
# HEALTHY. torchrun --tee 3 --log-dir, OMP_NUM_THREADS unset (torchrun prints its OMP banner). The script emits
# real library warnings: GradScaler("cuda") without CUDA, lr_scheduler.step() before optimizer.step(),
# torch.tensor(tensor) copy-construct (DDP runs with find_unused_parameters and an unused head); metrics named train_error / val_error /
# nan_errors=0. Everything finishes, exit 0.
source /work/blind/r18/gen/common.sh
newrun 029_healthy_noisy_warnings
unset OMP_NUM_THREADS
$TORCHRUN --nproc-per-node 4 --master-port 23029 --tee 3 --log-dir logs $GEN/p029_warnings.py > console.log 2>&1
echo "rc=$?"
