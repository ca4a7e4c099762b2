#!/bin/bash
# launch passes --set optim.lr=1.0 (meant as a multiplier; the config peak is 3e-3) with a 1500-step warmup:
# loss falls from 6.2 to ~0.3 while the LR is small, then (LR past ~0.3, step ~460) climbs to ~5 and stays.
# The trainer's divergence guard (identical averaged loss on every rank) aborts all ranks at the same step.
# torchrun 4 ranks; paste = whole console.
source /work/blind/r25/gen/common.sh
newrun 016_lr_divergence
$PY $R25/gen/make_data.py $W/data/train --shards 4 --samples 512 --easy >/dev/null
$PY $R25/gen/make_data.py $W/data/val --shards 4 --samples 32 --seed 99 --easy >/dev/null
MAX_STEPS=${MAX_STEPS:-600} EVAL_EVERY=50 CKPT_EVERY=100 base_config config.toml
sed -i "s/^warmup_steps = 10/warmup_steps = ${WARMUP:-1500}/" config.toml
sed -i "s/^ckpt_every = 100/ckpt_every = 100\ndivergence_guard = ${GUARD:-true}/" config.toml
$TORCHRUN --nproc-per-node 4 --master-port 30160 -m tinylm.train --config config.toml --set optim.lr=${LR:-1.0} > $OUT/console.log 2>&1
echo rc=$?
