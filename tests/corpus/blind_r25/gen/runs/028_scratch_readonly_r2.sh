#!/bin/bash
# custom bash launcher, one process per "node", each process's stdout+stderr to its own file.
# Node 2's local scratch was remounted read-only (as after a filesystem error); emulated by running rank 2 in a
# private mount namespace with its scratch dir bind-mounted read-only. At the step-25 checkpoint rank 2 cannot
# create its staging dir; ranks 0,1,3 wait in the post-save barrier. paste = out/rank0..3.out
source /work/blind/r25/gen/common.sh
newrun 028_scratch_readonly_r2
make_data
MAX_STEPS=60 EVAL_EVERY=20 CKPT_EVERY=25 base_config config.toml
sed -i "s|^dir = \"$W/ckpt\"|dir = \"$W/ckpt\"\nscratch = \"\$NODE_SCRATCH/tinylm-ablation\"|" config.toml
for r in 0 1 2 3; do mkdir -p $W/node$r/tinylm-ablation; done
mkdir -p $OUT/out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30280 WORLD_SIZE=4
for r in 0 1 2 3; do
  if [ $r = 2 ]; then
    RANK=$r LOCAL_RANK=0 NODE_SCRATCH=$W/node$r unshare -m sh -c "mount --bind $W/node$r $W/node$r && mount -o remount,ro,bind $W/node$r && exec $PY -m tinylm.train --config config.toml" > $OUT/out/rank$r.out 2>&1 &
  else
    RANK=$r LOCAL_RANK=0 NODE_SCRATCH=$W/node$r $PY -m tinylm.train --config config.toml > $OUT/out/rank$r.out 2>&1 &
  fi
done
wait
