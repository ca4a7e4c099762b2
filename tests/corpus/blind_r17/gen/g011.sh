#!/bin/bash
# 011: srun --multi-prog -l, 4 tasks. The multi-prog file wraps task 3 (an "eval-capable" rank) in
# `timeout 18` copied from a smoke-test config; after 18 s rank 3 gets SIGTERM and exits 124; the rest lose it.
export SLURM_CONF=/work/blind/slurm/slurm.conf
R=/work/blind/r17/runs/011_rank_sigterm_by_timeout_wrapper; rm -rf $R; mkdir -p $R; cd $R
W=/work/blind/r17/mnt/011w; rm -rf $W; mkdir -p $W
cat > $W/rank.sh <<'IN'
#!/bin/bash
export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID MASTER_ADDR=127.0.0.1 MASTER_PORT=22111
exec /work/blind/venv/bin/python /work/blind/r17/gen/train_basic.py
IN
chmod +x $W/rank.sh
cat > $W/tasks.conf <<IN
0-2  $W/rank.sh
3    timeout 18 $W/rank.sh
IN
export PYTHONPATH=/work/blind/r17/gen PG_TIMEOUT=15 STEPS=200 STEP_SLEEP=0.3
srun -l -n 4 --kill-on-bad-exit=1 --multi-prog $W/tasks.conf > job.log 2>&1
echo "exit=$?"
rm -rf $W
