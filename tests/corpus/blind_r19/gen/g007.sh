#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=007_jsonl_shard_bad; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
$PY $G/mkjsonl.py $W/$RUN/train-0.jsonl 2000 611
$PY $G/mkjsonl.py $W/$RUN/train-1.jsonl 2000 -1
$PY $G/mkjsonl.py $W/$RUN/train-2.jsonl 2000 -1
sbatch --wait -o $OUT/slurm-%j.out $G/s007.sbatch
echo "exit=$?"
