#!/bin/bash
R=/work/blind/r6/runs/009_slurm_time_limit; rm -rf $R; mkdir -p $R
export SLURM_CONF=/work/blind/slurm/slurm.conf
cd $R
jid=$(sbatch --parsable /work/blind/r6/gen/009_slurm_time_limit.sbatch)
for i in $(seq 150); do squeue -h -j $jid 2>/dev/null | grep -q . || break; sleep 1; done
echo "jobid=$jid" > $R/jobid; scontrol show job $jid | grep -E "JobState|RunTime" > $R/scontrol_ground_truth.txt
rm -rf $R/ckpt
