#!/bin/bash
R=/work/blind/r6/runs/011_nan_grad_norm; rm -rf $R; mkdir -p $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
cd $R
jid=$(sbatch --parsable /work/blind/r6/gen/011_nan_grad_norm.sbatch)
for i in $(seq 90); do squeue -h -j $jid 2>/dev/null | grep -q . || break; sleep 1; done
echo "jobid=$jid" > $R/jobid
