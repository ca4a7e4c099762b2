#!/bin/bash
# healthy mp.spawn run, json logs, with harmless warnings
source /work/blind/r20/gen/common.sh
D=$R/021_spawn_json; rm -rf $D; mkdir -p $D; cd $W
MASTER_PORT=25034 NSTEPS=30 FMT=json WARN=1 $PY $G/spawn_main.py 3 > $D/run.log 2>&1
echo rc=$?
