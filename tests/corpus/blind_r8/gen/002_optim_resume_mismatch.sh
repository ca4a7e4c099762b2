#!/bin/bash
R=/work/blind/r8/runs/002_optim_resume_mismatch; rm -rf $R /work/blind/r8/meta/002_prep; mkdir -p $R /work/blind/r8/meta/002_prep
export OMP_NUM_THREADS=1 PY=/work/blind/venv/bin/python
# previous run (not part of the evidence): writes checkpoints (rank 1 only has a v1 shard)
timeout 90 $PY /work/blind/r8/gen/002_optim_resume_mismatch.py prepare /work/blind/r8/meta/002_prep/ckpt > /work/blind/r8/meta/002_prep/console.log 2>&1
mkdir -p $R/ckpt && cp /work/blind/r8/meta/002_prep/ckpt/*.pt $R/ckpt/
cd $R && timeout 90 $PY /work/blind/r8/gen/002_optim_resume_mismatch.py resume $R/ckpt > $R/console.log 2>&1
echo "rc=$?" > /work/blind/r8/meta/002.rc
rm -rf $R/ckpt
