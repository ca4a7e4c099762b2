#!/bin/bash
# checkpoint dir on a read-only mount (EROFS) hit by rank 1 (checkpoint writer), sbatch + srun
source /work/blind/r20/gen/common.sh
D=$R/006_resume_job_sbatch; rm -rf $D; mkdir -p $D; cd $W
M=$W/ro006; mkdir -p $M; umount $M 2>/dev/null; mount --bind $M $M; mount -o remount,bind,ro $M
export CKPT_DIR=$M/ckpt CKPT_EVERY=10 CKPT_RANK=1 NSTEPS=30 FMT=tail
sbatch --wait -o $D/slurm-%j.out $G/job006.sbatch
echo rc=$?
umount $M
