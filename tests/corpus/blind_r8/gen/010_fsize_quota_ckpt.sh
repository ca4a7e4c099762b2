#!/bin/bash
R=/work/blind/r8/runs/010_fsize_quota_ckpt; rm -rf $R; mkdir -p $R
CK=/work/blind/r8/meta/010_scratch; rm -rf $CK; mkdir -p $CK
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1 CKPT_DIR=$CK
cd $R && timeout 90 srun --label -N1 -n3 -J pp-train bash -c 'ulimit -f 4096; exec /work/blind/venv/bin/python /work/blind/r8/gen/010_fsize_quota_ckpt.py' > $R/train.out 2>&1
echo "rc=$?" > /work/blind/r8/meta/010.rc
