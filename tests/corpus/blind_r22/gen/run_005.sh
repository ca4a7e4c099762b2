#!/bin/bash
# sbatch -> srun --label, 3 tasks; slurm-<jobid>.out is the input
set -u; export SLURM_CONF=/work/blind/slurm22/slurm.conf
D=/work/blind/r22/runs/005_uneven_shard_exit0; rm -rf $D; mkdir -p $D; cd $D
J=$(sbatch --parsable /work/blind/r22/gen/job_005.sbatch); echo job $J
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
sacct -j $J --format=JobID,State,ExitCode -n 2>/dev/null; ls
