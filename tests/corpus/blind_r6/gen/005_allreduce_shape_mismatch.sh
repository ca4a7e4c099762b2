#!/bin/bash
R=/work/blind/r6/runs/005_allreduce_shape_mismatch; rm -rf $R; mkdir -p $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
cd $R
timeout 85 srun -n 3 --label -J ft-lora /work/blind/venv/bin/python /work/blind/r6/gen/005_allreduce_shape_mismatch.py > $R/srun.log 2>&1
echo "exit=$?" > $R/exit_code
