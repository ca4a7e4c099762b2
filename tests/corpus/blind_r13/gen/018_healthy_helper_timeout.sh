#!/bin/bash
R=/work/blind/r13/runs/018_healthy_helper_timeout
rm -rf $R /tmp/r13_018_* && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
timeout 120 srun -J reg-small --label -n 3 --kill-on-bad-exit=1 unshare -m bash /work/blind/r13/gen/018_healthy_helper_timeout_task.sh > $R/run.log 2>&1
echo "srun exit status $?" >> $R/run.log
rm -rf /tmp/r13_018_*
