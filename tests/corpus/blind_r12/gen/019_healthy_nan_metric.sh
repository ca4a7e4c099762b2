#!/bin/bash
R=/work/blind/r12/runs/019_healthy_nan_metric
rm -rf $R && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
timeout 60 srun --label -N1 -n3 -J nanmetric /work/blind/venv/bin/python /work/blind/r12/gen/019_healthy_nan_metric.py > $R/srun.log 2>&1
echo "srun exit=$?" >> $R/srun.log
