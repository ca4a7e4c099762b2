source /work/blind/r64/gen/common.sh
source /work/blind/slurm64/env.sh
f053(){ w 053; cat > $G/slurm/053.sbatch <<EOS
#!/bin/bash
#SBATCH -J gpt-tiny
#SBATCH -N 1
#SBATCH --ntasks-per-node=1
#SBATCH --chdir=$W
export PYTHONUNBUFFERED=1 OUT=$W/out
srun $TR --nnodes 1 --nproc-per-node 2 --rdzv-backend c10d --rdzv-endpoint 127.0.0.1:29753 $G/hf_eval_bad.py
EOS
  JID=$(sbatch --parsable $G/slurm/053.sbatch); while squeue -h -j $JID | grep -q .; do sleep 2; done; cp $W/slurm-$JID.out $R/053/; echo "053 job $JID"; }
for r in "$@"; do f$r; done
