#!/bin/bash
# 004: mp.spawn, 3 ranks. Rank 2 reads a stale model.json (extra_block=true) -> different parameter count,
# DDP's init-time parameter verification fails.
R=/work/blind/r17/runs/004_ddp_model_config_drift; rm -rf $R; mkdir -p $R; cd $R
C=/work/blind/r17/mnt/004cfg; rm -rf $C; mkdir -p $C/a $C/b
echo '{"hidden": 64}' > $C/a/model.json
echo '{"hidden": 64, "extra_block": true}' > $C/b/model.json
export PYTHONPATH=/work/blind/r17/gen MASTER_PORT=22041 PG_TIMEOUT=15
/work/blind/venv/bin/python /work/blind/r17/gen/spawn_cfg_train.py 3 $C/a $C/a $C/b 2>&1 | tee output.txt
echo "exit=${PIPESTATUS[0]}"
rm -rf $C
