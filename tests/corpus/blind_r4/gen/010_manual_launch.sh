#!/bin/bash
# hand-rolled launcher: one process per "GPU slot"; the loop bound is off by one
# (seq 0 $((NSLOTS-2))), so the third rank is never started.
D=/work/blind/r4/runs/010_manual_launch; mkdir -p $D; cd $D
NSLOTS=3
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29701 WORLD_SIZE=$NSLOTS
{
echo "launching $NSLOTS ranks on $(hostname) at $(date -Is)"
for r in $(seq 0 $((NSLOTS-2))); do
  RANK=$r LOCAL_RANK=$r timeout 60 /work/blind/venv/bin/python -u /work/blind/r4/gen/010_manual_launch.py 2>&1 | sed -u "s/^/[slot$r] /" &
done
wait
echo "all ranks exited"
} > console.log 2>&1
