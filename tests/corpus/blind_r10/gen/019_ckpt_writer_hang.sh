#!/bin/bash
# the checkpoint NFS server stops responding after the first save: later checkpoint paths block forever
# on open (simulated with named pipes that nobody reads, as a hard-mounted hung NFS would)
R=/work/blind/r10/runs/019_ckpt_writer_hang; rm -rf $R; mkdir -p $R; cd $R
S=/tmp/r10_019_ckpt; rm -rf $S; mkdir -p $S; mkfifo $S/moe_step100.pt
export SLURM_CONF=/work/blind/slurm/slurm.conf CKPT_DIR=$S
sbatch --wait -D $R /work/blind/r10/gen/019_ckpt_writer_hang.sbatch
echo "rc=$?"
rm -rf $S
