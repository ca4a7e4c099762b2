#!/bin/bash
R=/work/blind/r12/runs/006_ckpt_pickle_lambda
rm -rf $R && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 90 sbatch --wait /work/blind/r12/gen/006_ckpt_pickle_lambda.sbatch > $R/sbatch_console.txt 2>&1
echo "sbatch exit=$?" >> $R/sbatch_console.txt
rm -rf $R/ckpt
