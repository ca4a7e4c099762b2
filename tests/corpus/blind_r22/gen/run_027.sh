#!/bin/bash
# HEALTHY: sbatch + srun --label, slurm-<jobid>.out
set -u; export SLURM_CONF=/work/blind/slurm22/slurm.conf
D=/work/blind/r22/runs/027_healthy_slurm_skipped_sample; rm -rf $D; mkdir -p $D; cd $D
J=$(sbatch --parsable /work/blind/r22/gen/job_027.sbatch); echo job $J
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
sacct -j $J -n -o JobID,State,ExitCode 2>/dev/null; ls
