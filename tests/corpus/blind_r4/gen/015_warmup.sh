#!/bin/bash
D=/work/blind/r4/runs/015_warmup; mkdir -p $D; cd $D
timeout 90 /work/blind/venv/bin/python /work/blind/r4/gen/015_warmup.py > console.log 2>&1
echo "exit $?" >&2
