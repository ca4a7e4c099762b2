#!/bin/bash
D=/work/blind/r4/runs/005_uneven_epoch; mkdir -p $D; cd $D
timeout 90 /work/blind/venv/bin/python /work/blind/r4/gen/005_uneven_epoch.py > console.log 2>&1
echo "exit $?" >&2
