#!/bin/bash
export SLURM_CONF=/work/blind/slurm23/slurm.conf
mkdir -p /work/blind/r23/runs/022_scancel; rm -f /work/blind/r23/runs/022_scancel/*
J=$(sbatch --parsable /work/blind/r23/gen/022_scancel.sbatch); sleep 40; scancel $J; sleep 15
