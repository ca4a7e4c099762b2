#!/bin/bash
# 017: bash loop, 4 ranks, all output to one file through `tee`. Rank 3 is started under a shell whose
# `ulimit -v` (address-space cap, 4 GiB, inherited from a login profile) is too small for the 3.81 GiB cache
# plus torch's mappings -> CPU allocator failure on rank 3.
R=/work/blind/r17/runs/017_address_space_cap_alloc; rm -rf $R; mkdir -p $R; cd $R
export CACHE_ROWS=8000000 PYTHONPATH=/work/blind/r17/gen MASTER_ADDR=127.0.0.1 MASTER_PORT=22171 WORLD_SIZE=4 PG_TIMEOUT=15 LOGSTYLE=logging
for r in 0 1 2 3; do
  if [ $r = 3 ]; then
    ( ulimit -v 4194304; RANK=$r LOCAL_RANK=$r exec /work/blind/venv/bin/python /work/blind/r17/gen/cache_train.py ) &
  else
    RANK=$r LOCAL_RANK=$r /work/blind/venv/bin/python /work/blind/r17/gen/cache_train.py &
  fi
done 2>&1 | tee all_ranks.log > /dev/null
wait
