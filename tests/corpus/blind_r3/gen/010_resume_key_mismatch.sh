#!/bin/bash
# mp.spawn launcher; the old checkpoint is written first (not part of the pasted console)
R=/work/blind/r3/runs/010_resume_key_mismatch; rm -rf $R; mkdir -p $R
J=/work/blind/r3/tmp/job010; mkdir -p $J; cp /work/blind/r3/gen/010_resume_key_mismatch.py $J/resume.py
cd $J
/work/blind/venv/bin/python resume.py --make-old
/work/blind/venv/bin/python resume.py > $R/console.log 2>&1
echo "exit $?"
