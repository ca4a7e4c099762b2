#!/bin/bash
R=/work/blind/r12/runs/018_healthy_optional_deps
rm -rf $R && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 120 sbatch --wait /work/blind/r12/gen/018_healthy_optional_deps.sbatch > $R/submit.txt 2>&1
echo "sbatch exit=$?" >> $R/submit.txt
rm -rf $R/ckpt
