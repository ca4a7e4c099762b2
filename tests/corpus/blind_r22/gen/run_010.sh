#!/bin/bash
# sbatch; srun -o %x-%j-%t.out (one file per task, no label)
set -u; export SLURM_CONF=/work/blind/slurm22/slurm.conf
D=/work/blind/r22/runs/010_resume_shard_size_mismatch; rm -rf $D; mkdir -p $D; cd $D
/work/blind/venv/bin/python /work/blind/r22/gen/mkckpt_010.py /work/blind/r22/work/ckpt010
J=$(sbatch --parsable /work/blind/r22/gen/job_010.sbatch); echo job $J
while squeue -h -j $J 2>/dev/null | grep -q .; do sleep 2; done
ls -la
