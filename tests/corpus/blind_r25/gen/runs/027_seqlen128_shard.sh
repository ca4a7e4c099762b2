#!/bin/bash
# shard train-00002 was tokenized with seq_len=128 (the model's context is 64, learned positions); its manifest
# entry does not say so. Rank 2's first batch has 128 positions -> position embedding index out of range.
# sbatch/srun WITHOUT --label, "bracket" log format; paste = slurm-<jobid>.out
source /work/blind/r25/gen/common.sh
export SLURM_CONF=/work/blind/slurm25/slurm.conf
newrun 027_seqlen128_shard
make_data --damage 2:seqlen128
MAX_STEPS=80 EVAL_EVERY=40 CKPT_EVERY=40 base_config config.toml
cat >> config.toml <<EOT

[log]
style = "bracket"
EOT
cat > job.sbatch <<EOT
#!/bin/bash
#SBATCH --job-name=tinylm-pt
#SBATCH --ntasks=4
#SBATCH --overcommit
#SBATCH --time=00:10:00
#SBATCH --output=$W/slurm-%j.out
export MASTER_ADDR=127.0.0.1 MASTER_PORT=30270
srun $PY -m tinylm.train --config $W/config.toml
EOT
jid=$(sbatch --parsable job.sbatch); echo job $jid
while squeue -h -j $jid 2>/dev/null | grep -q .; do sleep 2; done
cp $W/slurm-$jid.out $OUT/
