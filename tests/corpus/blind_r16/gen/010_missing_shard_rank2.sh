#!/bin/bash
# sbatch with srun --label, 4 tasks; data dir lacks shard_00002.pt -> rank 2 FileNotFoundError
NAME=010_missing_shard_rank2; source /work/blind/r16/gen/common.sh
D=/work/blind/r16/mnt/010_data; mkdir -p $D; $PY $GEN/make_shards.py $D 4 2
cat > run.sbatch <<EOS
#!/bin/bash
#SBATCH --job-name=pretrain-shards
#SBATCH --ntasks=4
#SBATCH --output=train-%j.log
export MASTER_PORT=21010 DATA_DIR=$D STEPS=50 LOGFMT=plain
srun --label $GEN/slurm_env.sh $PY $TRAIN
EOS
sbatch --wait run.sbatch; rm run.sbatch; rm -rf $D
