#!/bin/bash
R=/work/blind/r10/runs/002_flock_silent; rm -rf $R; mkdir -p $R/cache; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
# leftover cache-builder from the previous (cancelled) job still holds shard-001's lock
flock $R/cache/shard-001.lock sleep 300 & HOLDER=$!
sleep 1
timeout 90 srun --label --kill-on-bad-exit=1 -N1 -n3 -J embed-train /work/blind/venv/bin/python /work/blind/r10/gen/002_flock_silent.py > $R/console.log 2>&1
echo "rc=$?"
kill $HOLDER; wait $HOLDER 2>/dev/null
rm -rf $R/cache
