#!/bin/bash
R=/work/blind/r10/runs/020_meta_buffer; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
sbatch --wait -D $R /work/blind/r10/gen/020_meta_buffer.sbatch
echo "rc=$?"
