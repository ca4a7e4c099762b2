#!/bin/bash
D=/work/blind/r4/runs/008_resume_run; mkdir -p $D; cd $D
CK=/tmp/r4_008_last.pt
MAKE_CKPT=1 HIDDEN=256 /work/blind/venv/bin/python /work/blind/r4/gen/008_resume_run.py $CK
timeout 90 /work/blind/venv/bin/torchrun --nproc_per_node 3 --master_port 29681 /work/blind/r4/gen/008_resume_run.py $CK > console.log 2>&1
echo "exit $?" >&2
