#!/bin/bash
# custom bash launcher (one process per "node", RANK/WORLD_SIZE/MASTER_* env, like an in-house wrapper).
# Checkpoints stage each rank's state in node-local scratch ($NODE_SCRATCH) before copying to shared storage.
# Node 3's scratch is a small tmpfs that a previous job left almost full -> rank 3's torch.save fails at the
# step-25 checkpoint; the others wait in the post-save barrier. Job logs to per-rank files only
# (log.dir, console off, TINYLM_LOG_EXCEPTIONS=1). paste = logs/rank0..3.log
source /work/blind/r25/gen/common.sh
newrun 013_scratch_enospc
make_data
MAX_STEPS=60 EVAL_EVERY=20 CKPT_EVERY=25 base_config config.toml
sed -i "s|^dir = \"$W/ckpt\"|dir = \"$W/ckpt\"\nscratch = \"\$NODE_SCRATCH/tinylm-ablation\"|" config.toml
cat >> config.toml <<EOT

[log]
dir = "$OUT/logs"
console = false
EOT
for r in 0 1 2 3; do mkdir -p $W/node$r; done
mount -t tmpfs -o size=64k tinylm_scratch $W/node3
head -c $((52*1024)) /dev/urandom > $W/node3/core.python.41877   # leftover from an earlier job
df -h $W/node3
export TINYLM_LOG_EXCEPTIONS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=30130 WORLD_SIZE=4
for r in 0 1 2 3; do
  RANK=$r LOCAL_RANK=0 NODE_SCRATCH=$W/node$r $PY -m tinylm.train --config config.toml > $W/rank$r.stdout 2>&1 &
done
wait
umount $W/node3
