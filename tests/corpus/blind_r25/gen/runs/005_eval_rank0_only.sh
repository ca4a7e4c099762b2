#!/bin/bash
# "speed-up": evaluation moved under `if rank == 0:` but evaluate() still all_reduces its loss sums.
# rank 0 enters an all_reduce the other ranks never call (they go on training). torchrun --tee 3.
# paste = last 200 lines of the console.
source /work/blind/r25/gen/common.sh
newrun 005_eval_rank0_only
make_data
MAX_STEPS=100 EVAL_EVERY=30 CKPT_EVERY=50 base_config config.toml
cat >> config.toml <<EOT

[eval]
rank0_only = true
EOT
$TORCHRUN --nproc-per-node 4 --master-port 30050 --tee 3 -m tinylm.train --config config.toml > $W/console_full.log 2>&1
echo rc=$?
tail -n 200 $W/console_full.log > $OUT/console_tail.log
