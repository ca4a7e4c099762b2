#!/bin/bash
# packed .rec shards, 256 of them (64 per rank); RecShards keeps each shard's file+mmap open per worker.
# 4 single-process "nodes" (4 torchrun agents, static rendezvous); node 1 (rank 1) runs with ulimit -n 64
# (stricter limits.conf), so a DataLoader worker there hits EMFILE after touching ~40 shards.
# paste = node0.log .. node3.log (each agent's console)
source /work/blind/r25/gen/common.sh
newrun 010_nofile_worker
$PY $R25/gen/make_data.py $W/data/train --shards 256 --samples 8 --format rec >/dev/null
$PY $R25/gen/make_data.py $W/data/val --shards 4 --samples 32 --seed 99 >/dev/null
MAX_STEPS=120 EVAL_EVERY=40 CKPT_EVERY=50 base_config config.toml
cat >> config.toml <<EOT

[log]
style = "hydra"
EOT
for n in 0 1 2 3; do
  ( [ $n = 1 ] && ulimit -n 64
    exec $TORCHRUN --nnodes 4 --node-rank $n --nproc-per-node 1 --master-addr 127.0.0.1 --master-port 30100 \
     -m tinylm.train --config config.toml > $OUT/node$n.log 2>&1 ) &
done
wait
