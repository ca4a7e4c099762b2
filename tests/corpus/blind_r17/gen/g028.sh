#!/bin/bash
# 028 (healthy): mp.spawn, 3 ranks. Rank 0 saves a checkpoint to a fast local scratch (1 MiB tmpfs, too small):
# ENOSPC traceback logged, falls back to the slower dir and succeeds; training completes.
R=/work/blind/r17/runs/028_healthy_ckpt_fallback_after_enospc; rm -rf $R; mkdir -p $R; cd $R
M=/work/blind/r17/mnt/028scratch; S=/work/blind/r17/mnt/028slow; mkdir -p $M $S
mount -t tmpfs -o size=1m tmpfs $M
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15 EVENT=enospc EVENT_RANK=0 USE_SPAWN=1 NPROCS=3 FAST_CKPT=$M SLOW_CKPT=$S
export MASTER_ADDR=127.0.0.1 MASTER_PORT=22281 LOGSTYLE=logging
/work/blind/venv/bin/python /work/blind/r17/gen/healthy_train.py > run.log 2>&1
echo "exit=$?"
umount $M; rm -rf $M $S
