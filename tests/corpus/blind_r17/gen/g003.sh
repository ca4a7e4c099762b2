#!/bin/bash
# 003: bash loop starts 4 ranks with env vars, output per rank to rank_N.log. Each rank memory-maps its own
# shard; ~8s in, a "cache refresh" job truncates rank 2's shard -> rank 2's DataLoader worker gets SIGBUS.
R=/work/blind/r17/runs/003_mmap_shard_truncated; rm -rf $R; mkdir -p $R; cd $R
D=/work/blind/r17/mnt/003data; rm -rf $D; mkdir -p $D
for r in 0 1 2 3; do /work/blind/venv/bin/python -c "import numpy as np; np.random.rand(3000*33).astype('float32').tofile('$D/feats_0$r.bin')"; done
export PYTHONPATH=/work/blind/r17/gen DATA_DIR=$D MASTER_ADDR=127.0.0.1 MASTER_PORT=22031 WORLD_SIZE=4 PG_TIMEOUT=15 LOGSTYLE=logging
pids=()
for r in 0 1 2 3; do
  RANK=$r LOCAL_RANK=$r /work/blind/venv/bin/python /work/blind/r17/gen/mmap_train.py > rank_$r.log 2>&1 &
  pids+=($!)
done
( sleep 9; : > $D/feats_02.bin.tmp; truncate -s 4096 $D/feats_02.bin ) &
for p in "${pids[@]}"; do wait $p; echo "pid $p exit $?"; done
rm -rf $D
