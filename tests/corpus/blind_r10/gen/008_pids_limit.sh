#!/bin/bash
# task 1 lands in a container whose runtime sets a low pids limit (pids.max); simulated with a pids cgroup
R=/work/blind/r10/runs/008_pids_limit; rm -rf $R; mkdir -p $R; cd $R
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
CG=/sys/fs/cgroup/pids/r10_008; rmdir $CG 2>/dev/null; mkdir -p $CG; echo ${PIDS_MAX:-10} > $CG/pids.max
timeout 90 srun --label -N1 -n2 -J sentiment bash -c \
  'if [ "$SLURM_PROCID" = 1 ]; then echo $$ > '$CG'/cgroup.procs; fi; exec /work/blind/venv/bin/python /work/blind/r10/gen/008_pids_limit.py' > $R/console.log 2>&1
echo "rc=$?"
cat $CG/pids.max $CG/pids.events 2>/dev/null
sleep 1; rmdir $CG
