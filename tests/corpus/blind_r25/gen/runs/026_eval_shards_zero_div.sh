#!/bin/bash
# The validation set was re-exported with 3 shards while the job runs 4 ranks; eval shards are split
# shards[rank::world], so rank 3 gets none and its eval loop sees 0 tokens. eval.log_local computes a
# rank-local loss with a plain float division before the all_reduce -> ZeroDivisionError on rank 3 at the
# first eval (step 30); the others wait in the all_reduce. Launched with an in-house mp.spawn launcher.
# paste = the launcher's console.
source /work/blind/r25/gen/common.sh
newrun 026_eval_shards_zero_div
$PY $R25/gen/make_data.py $W/data/train --shards 4 --samples 128 >/dev/null
$PY $R25/gen/make_data.py $W/data/val --shards 3 --samples 32 --seed 99 >/dev/null
MAX_STEPS=90 EVAL_EVERY=30 CKPT_EVERY=45 base_config config.toml
cat >> config.toml <<EOT

[eval]
log_local = true
EOT
MASTER_PORT=30260 NPROC=4 $PY $R25/gen/launch_spawn.py --config config.toml > $OUT/console.log 2>&1
echo rc=$?
