#!/bin/bash
# 015: srun --label, 4 tasks, output to a file via sbatch --output. Rank 1's eval split has 24 samples < batch 32,
# so with drop_last it evaluates zero batches and acc = 0/0 -> ZeroDivisionError in evaluate() on rank 1 only.
export SLURM_CONF=/work/blind/slurm/slurm.conf
R=/work/blind/r17/runs/015_eval_split_empty; rm -rf $R; mkdir -p $R; cd $R
W=/work/blind/r17/mnt/015w; rm -rf $W; mkdir -p $W
cat > $W/job.sh <<'IN'
#!/bin/bash
#SBATCH -n 4
#SBATCH -t 4
#SBATCH -o train-%j.log
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15 SHORT_EVAL_RANK=1 LOGSTYLE=logging
srun --label bash -c 'export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID MASTER_ADDR=127.0.0.1 MASTER_PORT=22151; exec /work/blind/venv/bin/python /work/blind/r17/gen/eval_train.py'
IN
jid=$(sbatch --parsable -D $R $W/job.sh)
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
rm -rf $W
