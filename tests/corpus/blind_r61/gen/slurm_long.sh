#!/bin/bash
# Slurm runs that take a minute or more (time limits, scancel); submitted in the background.
source /work/blind/slurm61/env.sh
R=/work/blind/r61/runs; T=/work/blind/r61/gen/train.py; PY=/work/blind/torchenv/bin/python
mkdir -p $R/016 $R/017 $R/018
# 016: rank1 prefetch thread dies (missing shard), rank1 main blocks, others wait in allreduce, time limit ends job
cat > /tmp/b61_016.sbatch <<EOS
#!/bin/bash
#SBATCH -J pretrain-lm -n 4 --time=1 -o $R/016/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29716 FAULT=bgthread FRANK=1 FSTEP=3 LOGFMT=logging PG_TIMEOUT=600 STEPS=10
echo "job \$SLURM_JOB_ID on \$SLURM_NODELIST, ntasks=\$SLURM_NTASKS"
srun -l $PY $T
EOS
# 017: all ranks stuck in a very slow step; time limit
cat > /tmp/b61_017.sbatch <<EOS
#!/bin/bash
#SBATCH -J finetune -n 2 --time=1 -o $R/017/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29717 LOGFMT=json STEP_SLEEP=900 STEPS=10
srun $PY $T
EOS
# 018: scancel (SIGTERM) mid-training, handler logs
cat > /tmp/b61_018.sbatch <<EOS
#!/bin/bash
#SBATCH -J sft-run -n 3 -o $R/018/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=29718 LOGFMT=prefix STEP_SLEEP=1.5 STEPS=200 EVAL_EVERY=20 SAVE_AT=1000 SIGTERM_HANDLER=1
srun -l $PY $T
EOS
j16=$(sbatch --parsable /tmp/b61_016.sbatch); j17=$(sbatch --parsable /tmp/b61_017.sbatch); j18=$(sbatch --parsable /tmp/b61_018.sbatch)
echo "jobs $j16 $j17 $j18"
sleep 30; scancel $j18; echo "scancelled $j18 at $(date +%T)"
for i in $(seq 1 30); do sleep 5; n=$(squeue -h -j $j16,$j17,$j18 2>/dev/null | wc -l); [ "$n" = 0 ] && break; done
for j in $j16 $j17 $j18; do scontrol show job $j | grep -E "JobState|RunTime"; done
