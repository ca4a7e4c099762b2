#!/bin/bash
# 006: srun -o per-task files (%t), 4 tasks. Rank 0 (profiler rank) puts a threading.Lock in its metrics dict;
# all_gather_object fails to pickle it on rank 0; the others wait in the gather and lose their peer.
export SLURM_CONF=/work/blind/slurm/slurm.conf
R=/work/blind/r17/runs/006_gather_object_unpicklable; rm -rf $R; mkdir -p $R; cd $R
W=/work/blind/r17/mnt/006w; mkdir -p $W
cat > $W/launch.sh <<'IN'
#!/bin/bash
export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=$SLURM_LOCALID MASTER_ADDR=127.0.0.1 MASTER_PORT=22061
exec /work/blind/venv/bin/python /work/blind/r17/gen/metrics_train.py
IN
chmod +x $W/launch.sh
export PYTHONPATH=/work/blind/r17/gen PROFILE_RANK=0 PG_TIMEOUT=15 LOGSTYLE=json
srun -n 4 -o "$R/task-%t.out" -e "$R/task-%t.err" $W/launch.sh 2> $R/srun_stderr.txt
echo "exit=$?"
rm -rf $W
