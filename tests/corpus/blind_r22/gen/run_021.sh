#!/bin/bash
# sbatch + srun --label; train-<jobid>.log
set -u; export SLURM_CONF=/work/blind/slurm22/slurm.conf
D=/work/blind/r22/runs/021_hub_down_rank0; rm -rf $D; mkdir -p $D; cd $D
J=$(sbatch --parsable /work/blind/r22/gen/job_021.sbatch); echo job $J
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
ls
