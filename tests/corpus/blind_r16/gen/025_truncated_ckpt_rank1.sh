#!/bin/bash
# sbatch + srun -l, 3 tasks; each rank resumes its own checkpoint file; rank 1's file is truncated (torn copy)
NAME=025_truncated_ckpt_rank1; source /work/blind/r16/gen/common.sh
C=/work/blind/r16/mnt/025; mkdir -p $C; $PY $GEN/make_trunc_ckpts.py $C 3 1
cat > resume.sbatch <<EOS
#!/bin/bash
#SBATCH -J resume-3000
#SBATCH -n 3
export MASTER_PORT=21025 RESUME=$C/ckpt_step3000_rank{rank}.pt STEPS=40 LOGFMT=logging
srun -l $GEN/slurm_env.sh $PY $TRAIN
EOS
sbatch --wait resume.sbatch; rm resume.sbatch; rm -rf $C
