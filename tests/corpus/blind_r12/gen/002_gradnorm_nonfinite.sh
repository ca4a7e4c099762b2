#!/bin/bash
R=/work/blind/r12/runs/002_gradnorm_nonfinite
rm -rf $R && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1 MASTER_PORT=32102
timeout 60 srun --label -N1 -n4 -J sensreg /work/blind/venv/bin/python /work/blind/r12/gen/002_gradnorm_nonfinite.py > $R/srun.log 2>&1
echo "srun exit=$?" >> $R/srun.log
