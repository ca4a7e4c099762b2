#!/bin/bash
# usage: go2.sh RUN_NAME NNODES 'cmd with {NODE} placeholder' -> node<i>.log per agent
R=/work/blind/r27
name=$1; nn=$2; shift 2
d=$R/full/$name; mkdir -p $d; cd $d
source /work/blind/venv/bin/activate
export PYTHONUNBUFFERED=1
echo "$*" > cmd.txt
echo "started $(date -Is)" > meta.txt
pids=()
for ((i=nn-1;i>=0;i--)); do
  c=${*//\{NODE\}/$i}
  bash -c "$c" > node$i.log 2>&1 &
  pids[$i]=$!
  sleep 1
done
for ((i=0;i<nn;i++)); do wait ${pids[$i]}; echo "node$i rc=$?" >> meta.txt; done
echo "ended $(date -Is)" >> meta.txt
cat meta.txt
