#!/bin/bash
R=/work/blind/r7/runs/015_autograd_fn; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
JID=$(sbatch --parsable /work/blind/r7/gen/015_autograd_fn.sbatch)
while squeue -h -j $JID 2>/dev/null | grep -q .; do sleep 2; done
echo "job $JID finished"
