#!/bin/bash
# usage: go.sh RUN_NAME 'command string'   -> runs in /work/blind/r27/full/RUN_NAME, console to console.log
R=/work/blind/r27
name=$1; shift
d=$R/full/$name; mkdir -p $d; cd $d
source /work/blind/venv/bin/activate
export PYTHONUNBUFFERED=1
echo "$*" > cmd.txt
echo "started $(date -Is)" > meta.txt
bash -c "$*" > console.log 2>&1
rc=$?
echo "rc=$rc ended $(date -Is)" >> meta.txt
echo "$name rc=$rc lines=$(wc -l < console.log)"
