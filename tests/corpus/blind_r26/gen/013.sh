#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 013_sbatch_resume_truncated
python $R/gen/mkdata.py data 4 --n 2000
mkdir -p ckpt
torchrun --nnodes 1 --nproc-per-node 4 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:31130 --rdzv-id prep013 \
  $T --data data --steps 60 --log-every 20 --ckpt-dir ckpt --ckpt-every 30 > prep.log 2>&1 || exit 1
# the node was rebooted while step_000060.pt was being written: only the first 150 KB reached disk
truncate -s 150000 ckpt/step_000060.pt
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J mlp-resume
#SBATCH -n 4
#SBATCH --overcommit
#SBATCH -o $RUN/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31131 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
ls -l ckpt/
srun --label --kill-on-bad-exit=1 python $T --data data --steps 200 --log-every 10 --ckpt-dir ckpt --ckpt-every 30 --resume-latest --fault ckpt_rank0_load
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J; waitjob $J
