#!/bin/bash
R=/work/blind/r9/runs/010_fp16_cast_overflow; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
sbatch --wait /work/blind/r9/gen/010_fp16_cast_overflow.sbatch
