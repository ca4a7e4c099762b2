#!/bin/bash
# 3 plain python processes, env://; rank r -> out/worker-r.jsonl (stdout+stderr)
set -u; G=/work/blind/r22/gen; W=/work/blind/r22/work/cfg007; D=/work/blind/r22/runs/007_stale_config_ddp_shapes; rm -rf $D; mkdir -p $D/out $W; cd $D
echo '{"hidden": 32, "lr": 0.1}' > $W/model.json; echo '{"hidden": 48, "lr": 0.1}' > $W/model_old.json
export MASTER_ADDR=127.0.0.1 MASTER_PORT=27070 WORLD_SIZE=3 OMP_NUM_THREADS=1
for r in 0 1 2; do C=$W/model.json; [ $r = 1 ] && C=$W/model_old.json
  CFG=$C RANK=$r LOCAL_RANK=$r timeout 120 /work/blind/venv/bin/python $G/train_007.py > out/worker-$r.jsonl 2>&1 & done
wait; echo done
