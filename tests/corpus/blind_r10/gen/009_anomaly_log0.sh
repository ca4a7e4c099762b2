#!/bin/bash
R=/work/blind/r10/runs/009_anomaly_log0; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
sbatch --wait -D $R /work/blind/r10/gen/009_anomaly_log0.sbatch
echo "rc=$?"
