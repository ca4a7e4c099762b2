#!/bin/bash
source /work/blind/r19/gen/common.sh
RUN=026_baseline_loop_launch; OUT=$R/$RUN; mkdir -p $OUT $W/$RUN; rm -rf $OUT/*
cd $W/$RUN
# rank 0 (store host) comes up late; the others retry the store connection meanwhile
export RANK_PRE_0="sleep 6"
bash $G/launch_loop.sh 3 24026 $OUT "$PY $G/train.py --steps 60 --timeout 60 --run-id $RUN --fmt weird" > $OUT/launch.log 2>&1
