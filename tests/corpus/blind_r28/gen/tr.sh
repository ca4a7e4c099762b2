#!/bin/bash
# usage: [ENV...] tr.sh RUN OUTFILE torchrun-args...   (runs in runs/RUN, writes OUTFILE, rc to gen/rc/RUN)
RUN=$1; OUT=$2; shift 2
mkdir -p /work/blind/r28/runs/$RUN /work/blind/r28/gen/rc
cd /work/blind/r28/runs/$RUN || exit 1
timeout ${TMO:-170} /work/blind/venv/bin/torchrun "$@" > $OUT 2>&1
echo $? > /work/blind/r28/gen/rc/$RUN
