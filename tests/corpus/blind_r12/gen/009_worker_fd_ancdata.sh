#!/bin/bash
R=/work/blind/r12/runs/009_worker_fd_ancdata
rm -rf $R && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
ulimit -n 1024
timeout 60 srun -N1 -n2 -J docenc /work/blind/venv/bin/python /work/blind/r12/gen/009_worker_fd_ancdata.py > $R/job.log 2>&1
echo "srun exit=$?" >> $R/job.log
