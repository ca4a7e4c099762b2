#!/bin/bash
R=/work/blind/r13/runs/011_sgdr_restart_divergence
rm -rf $R && mkdir -p $R && cd $R
export OMP_NUM_THREADS=1
timeout 60 /work/blind/venv/bin/python -u /work/blind/r13/gen/011_sgdr_restart_divergence.py > $R/train_tabular.log 2>&1
echo "python exit status: $?" >> $R/train_tabular.log
