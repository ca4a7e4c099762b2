#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=025_baseline_spawn_json; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
MASTER_PORT=24025 NPROCS=2 $PY $G/spawn_main.py --steps 70 --warn --timeout 40 --run-id $RUN --fmt json > $OUT/stdout.jsonl 2> $OUT/stderr.txt
echo "exit=$?"
