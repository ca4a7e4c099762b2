#!/bin/bash
R=/work/blind/r12/runs/016_watchdog_sample_loop
rm -rf $R && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 120 sbatch --wait /work/blind/r12/gen/016_watchdog_sample_loop.sbatch > $R/submit.txt 2>&1
echo "sbatch exit=$?" >> $R/submit.txt
