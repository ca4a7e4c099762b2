#!/bin/bash
# 027 (healthy): srun -l, 3 tasks. Rank 1 gets a NaN feature at step 4, the bad sample is detected and dropped from the
# batch; training completes.
export SLURM_CONF=/work/blind/slurm/slurm.conf
R=/work/blind/r17/runs/027_healthy_nan_batch_skipped; rm -rf $R; mkdir -p $R; cd $R
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15 EVENT=nan EVENT_RANK=1
srun -l -n 3 bash -c 'RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID MASTER_ADDR=127.0.0.1 MASTER_PORT=22271 exec /work/blind/venv/bin/python /work/blind/r17/gen/healthy_train.py' > out.txt 2>&1
echo "exit=$?"
