#!/bin/bash
R=/work/blind/r10/runs/016_ckpt_erofs; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
sbatch --wait -D $R /work/blind/r10/gen/016_ckpt_erofs.sbatch
echo "rc=$?"
rmdir $R/checkpoints
