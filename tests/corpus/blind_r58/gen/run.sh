#!/bin/bash
# usage: run.sh NNN <command...>   -- runs command in runs/NNN, console to console.log (stdout+stderr)
id=$1; shift
D=/work/blind/r58/runs/$id; mkdir -p $D; cd $D
export PATH=/work/blind/torchenv/bin:$PATH
export T=/work/blind/r58/gen/train.py
( timeout 180 bash -c "$*" ) > console.log 2>&1
echo "run $id rc=$?"
