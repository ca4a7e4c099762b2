#!/bin/bash
# usage: sb.sh RUN_NAME script.sbatch  -> submits with SLURM_CONF, waits, copies slurm-*.out into full/RUN_NAME
R=/work/blind/r27
export SLURM_CONF=/work/blind/slurm27/slurm.conf
name=$1; script=$2
d=$R/full/$name; mkdir -p $d; cd $d
cp $R/gen/$script job.sbatch
jid=$(sbatch --parsable job.sbatch)
echo "jobid=$jid submitted $(date -Is)" > meta.txt
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 3; done
sleep 2
sacct -j $jid --format=JobID,JobName,State,ExitCode,Elapsed -P >> meta.txt 2>&1 || true
scontrol show job $jid >> meta.txt 2>&1 || true
echo "ended $(date -Is)" >> meta.txt
ls $d; head -3 meta.txt
