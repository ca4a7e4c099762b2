#!/bin/bash
R=/work/blind/r13/runs/002_feature_server_recv
rm -rf $R && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
timeout 150 sbatch --wait /work/blind/r13/gen/002_feature_server_recv.sbatch > /dev/null 2>&1
