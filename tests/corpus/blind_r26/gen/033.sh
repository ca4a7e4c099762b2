#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 033_sbatch_torchrun_async_ckpt_deadline
python $R/gen/mkdata.py data 4 --n 4000
mkdir -p ckpt; mkfifo ckpt/step_000060.pt   # the object-store FUSE mount stalls on this file
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J enc-pretrain
#SBATCH -N 1
#SBATCH -n 1
#SBATCH -c 2
#SBATCH -o $RUN/slurm-%j.out
echo "job \$SLURM_JOB_ID on \$(hostname)"
srun torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31330 --rdzv-id \$SLURM_JOB_ID \
   --log-dir $RUN/torchrun_logs --tee 3 \
   $T --data data --steps 400 --log-every 10 --step-sleep 0.05 --ckpt-dir ckpt --ckpt-every 30 --async-ckpt --async-deadline 20 --timeout 40
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J; waitjob $J
