#!/bin/bash
# Phase 1 (not pasted) trains 40 steps and checkpoints at 20 and 40; its node was then reclaimed while rank 1's
# rank-state file of step 40 was being written: rank001.pt is torn (kept the first 40% of the bytes, as a
# killed writer leaves it). Phase 2 resumes from `latest` (step 40): model.pt loads on every rank, rank 1's
# own state file fails to load. torchrun 4 ranks; paste = last 150 lines of the phase-2 console.
source /work/blind/r25/gen/common.sh
newrun 018_torn_rank_state
make_data
MAX_STEPS=120 EVAL_EVERY=50 CKPT_EVERY=20 base_config config.toml
$TORCHRUN --nproc-per-node 4 --master-port 30180 -m tinylm.train --config config.toml --set run.max_steps=40 > phase1.log 2>&1
f=$W/ckpt/step_000040/rank001.pt; sz=$(stat -c %s $f); head -c $((sz*4/10)) $f > $f.part && mv $f.part $f
$TORCHRUN --nproc-per-node 4 --master-port 30181 -m tinylm.train --config config.toml --set run.resume='"auto"' > $W/console_full.log 2>&1
echo rc=$?
tail -n 150 $W/console_full.log > $OUT/console_last150.log
