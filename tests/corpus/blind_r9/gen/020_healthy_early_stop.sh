#!/bin/bash
R=/work/blind/r9/runs/020_healthy_early_stop; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=30022
timeout 90 srun -p debug -n 3 --label --unbuffered -J ft-es /work/blind/venv/bin/python /work/blind/r9/gen/020_healthy_early_stop.py > $R/srun.out 2>&1
echo "srun exit $?" >> $R/srun.out
