#!/bin/bash
# plain python x4 with env:// ; each process -> logs/rank{N}.log
set -u; G=/work/blind/r22/gen; D=/work/blind/r22/runs/003_tokenizer_oob_rank3; rm -rf $D; mkdir -p $D/logs; cd $D
/work/blind/venv/bin/python $G/mkdata_003.py /work/blind/r22/work/data003
export MASTER_ADDR=127.0.0.1 MASTER_PORT=27030 WORLD_SIZE=4 OMP_NUM_THREADS=1 DATA_DIR=/work/blind/r22/work/data003
for r in 0 1 2 3; do RANK=$r LOCAL_RANK=$r timeout 150 /work/blind/venv/bin/python $G/train_003.py > logs/rank$r.log 2>&1 & done
wait; echo done
