#!/bin/bash
D=/work/blind/r4/runs/002_corpus_pass; mkdir -p $D; cd $D
S=/tmp/r4_002_shards; rm -rf $S; /work/blind/venv/bin/python /work/blind/r4/gen/002_make_shards.py $S
timeout 90 /work/blind/venv/bin/python /work/blind/r4/gen/002_corpus_pass.py $S > console.log 2>&1
echo "exit $?" >&2
