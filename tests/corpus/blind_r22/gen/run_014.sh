#!/bin/bash
# sbatch -t 1 + srun --label; slurm-<jobid>.out
set -u; export SLURM_CONF=/work/blind/slurm22/slurm.conf
D=/work/blind/r22/runs/014_slurm_time_limit; rm -rf $D; mkdir -p $D; cd $D
J=$(sbatch --parsable /work/blind/r22/gen/job_014.sbatch); echo job $J
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 3; done
sacct -j $J -n -o JobID,State,ExitCode 2>/dev/null; ls
