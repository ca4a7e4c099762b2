#!/bin/bash
# healthy sbatch nightly with checkpoints and warnings
source /work/blind/r20/gen/common.sh
D=$R/024_nightly_sbatch; rm -rf $D; mkdir -p $D; cd $W
rm -rf $W/ckpt024
export NSTEPS=40 FMT=plain WARN=1 CKPT_DIR=$W/ckpt024 CKPT_EVERY=20 CKPT_RANK=-1
sbatch --wait -o $D/slurm-%j.out $G/job024.sbatch
echo rc=$?
