#!/bin/bash
R=/work/blind/r13/runs/013_abba_deadlock_timelimit
rm -rf $R /tmp/r13_013_* && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 200 sbatch --wait /work/blind/r13/gen/013_abba_deadlock_timelimit.sbatch > /dev/null 2>&1
rm -f /tmp/r13_013_*
