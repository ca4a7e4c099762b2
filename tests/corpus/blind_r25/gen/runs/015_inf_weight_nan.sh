#!/bin/bash
# shard train-00002 has 1 sample whose quality weight is +inf (score / zero length-normaliser).
# Rank 2 draws one -> weighted loss is NaN -> the trainer's finite-loss check raises FloatingPointError
# on rank 2 before backward; ranks 0,1,3 wait in the DDP all_reduce and lose the peer.
# sbatch/srun --label, TORCH_CPP_LOG_LEVEL=INFO (c10d info noise). paste = last 250 lines of slurm-<jobid>.out
source /work/blind/r25/gen/common.sh
export SLURM_CONF=/work/blind/slurm25/slurm.conf
newrun 015_inf_weight_nan
SAMPLES=1024 make_data --damage 2:inf_weight
LOG_EVERY=2 MAX_STEPS=200 EVAL_EVERY=40 CKPT_EVERY=50 base_config config.toml
cat > job.sbatch <<EOT
#!/bin/bash
#SBATCH --job-name=tinylm-pt
#SBATCH --ntasks=4
#SBATCH --overcommit
#SBATCH --time=00:10:00
#SBATCH --output=$W/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30150 TORCH_CPP_LOG_LEVEL=INFO
echo "[\$(date -Is)] job \$SLURM_JOB_ID on \$SLURM_JOB_NODELIST, \$SLURM_NTASKS tasks"
srun --label $PY -m tinylm.train --config $W/config.toml
EOT
jid=$(sbatch --parsable job.sbatch); echo job $jid
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
cp $W/slurm-$jid.out $W/full.out
tail -n 250 $W/slurm-$jid.out > $OUT/slurm-$jid.tail250.out
