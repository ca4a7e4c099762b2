#!/bin/bash
# 002: srun -l, 3 tasks. Rank 1's shard has " \t" sequences that make normalise() loop forever
# (CPU busy, no output). Ranks 0 and 2 block in the step-5 all_reduce and hit the gloo timeout.
export SLURM_CONF=/work/blind/slurm/slurm.conf
R=/work/blind/r17/runs/002_preprocess_infinite_loop; rm -rf $R; mkdir -p $R; cd $R
cat > launch.sh <<'IN'
#!/bin/bash
export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID MASTER_ADDR=127.0.0.1 MASTER_PORT=22021
exec /work/blind/venv/bin/python /work/blind/r17/gen/prep_train.py
IN
chmod +x launch.sh
export PYTHONPATH=/work/blind/r17/gen SHARD_WITH_TABS=1 PG_TIMEOUT=15
srun -l -n 3 --kill-on-bad-exit=1 --time=3 ./launch.sh > $R/train.out 2>&1
echo "exit=$?"
rm -f launch.sh
