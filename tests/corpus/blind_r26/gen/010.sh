#!/bin/bash
source /work/blind/r26/gen/lib.sh
mkrun 010_sbatch_ckpt_write_hang
python $R/gen/mkdata.py data 4 --n 2000
mkdir -p $WD/ckpt; mkfifo $WD/ckpt/step_000040.pt   # the write to this path never completes (stands in for a stuck filer)
cat > $WD/job.sbatch <<EOS
#!/bin/bash
#SBATCH -J mlp-ckpt-test
#SBATCH -n 4
#SBATCH --overcommit
#SBATCH -o $RUN/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=31100 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
srun --label --kill-on-bad-exit=1 python $T --data data --steps 150 --log-every 10 --ckpt-dir $WD/ckpt --ckpt-every 20 --timeout 50
EOS
J=$(sbatch --parsable --chdir=$WD $WD/job.sbatch); echo job $J; waitjob $J
