#!/bin/bash
# sbatch + srun (3 tasks); rank 0 writes checkpoints to a 1 MiB tmpfs; the second save hits ENOSPC
NAME=007_ckpt_enospc_rank0; source /work/blind/r16/gen/common.sh
MNT=/work/blind/r16/mnt/007; mkdir -p $MNT; mount -t tmpfs -o size=1m tmpfs $MNT; mkdir -p $MNT/ckpt
cat > job.sbatch <<EOS
#!/bin/bash
#SBATCH -J ckpt-train
#SBATCH -n 3
#SBATCH -t 00:10:00
export MASTER_PORT=21007 STEPS=60 CKPT_EVERY=10 CKPT_DIR=$MNT/ckpt CKPT_PAD=100000 LOGFMT=logging
echo "job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun $GEN/slurm_env.sh $PY $TRAIN
EOS
sbatch --wait job.sbatch
rm job.sbatch
ls -la $MNT/ckpt > /dev/null; umount $MNT; rmdir $MNT
