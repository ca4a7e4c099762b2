#!/bin/bash
D=/work/blind/r5/runs/010_tokenize; mkdir -p $D; cd $D
export DATA_DIR=/tmp/r5_010_data; rm -rf $DATA_DIR; mkdir -p $DATA_DIR
for r in 0 1 2; do for i in $(seq 40); do echo "sample $r $i the quick brown fox"; done > $DATA_DIR/train-0000$r-of-00004.txt; done
# shard 3 never finished uploading
OMP_NUM_THREADS=1 timeout 60 /work/blind/venv/bin/torchrun --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint localhost:29620 --log-dir $D/rank_logs --redirects 3 /work/blind/r5/gen/010_tokenize.py > console.log 2>&1
echo "exit=$?"
