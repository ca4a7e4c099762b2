#!/bin/bash
R=/work/blind/r13/runs/006_carry_negatives_graph
rm -rf $R && mkdir -p $R && cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
timeout 90 srun --label -J contrastive -n 4 /work/blind/venv/bin/python -u /work/blind/r13/gen/006_carry_negatives_graph.py > $R/console.log 2>&1
echo "srun rc=$?" >> $R/console.log
