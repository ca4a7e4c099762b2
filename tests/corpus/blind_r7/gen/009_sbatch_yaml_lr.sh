#!/bin/bash
R=/work/blind/r7/runs/009_sbatch_yaml_lr; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
JID=$(sbatch --parsable /work/blind/r7/gen/009_sbatch_yaml_lr.sbatch)
while squeue -h -j $JID 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JID finished"
