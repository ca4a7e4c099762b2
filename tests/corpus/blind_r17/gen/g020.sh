#!/bin/bash
# 020: bash loop, 3 ranks, one log per rank. Rank 2 runs inside a pids cgroup (container-style pids limit);
# once training is up the limit is just above its current task count, so starting 6 DataLoader workers fails
# with EAGAIN on rank 2.
R=/work/blind/r17/runs/020_pids_limit_dataloader_fork; rm -rf $R; mkdir -p $R; cd $R
CG=/sys/fs/cgroup/pids/r17_020; rmdir $CG 2>/dev/null; mkdir $CG
export PYTHONPATH=/work/blind/r17/gen MASTER_ADDR=127.0.0.1 MASTER_PORT=22201 WORLD_SIZE=3 PG_TIMEOUT=15 OMP_NUM_THREADS=1
for r in 0 1 2; do
  if [ $r = 2 ]; then
    bash -c "echo \$\$ > $CG/cgroup.procs; RANK=$r LOCAL_RANK=$r exec /work/blind/venv/bin/python /work/blind/r17/gen/dl_train.py" > train_rank$r.log 2>&1 &
  else
    RANK=$r LOCAL_RANK=$r /work/blind/venv/bin/python /work/blind/r17/gen/dl_train.py > train_rank$r.log 2>&1 &
  fi
done
until grep -q 'warmup step 1' train_rank2.log 2>/dev/null; do sleep 0.2; done
cur=$(cat $CG/pids.current); echo $((cur + 2)) > $CG/pids.max
wait
sleep 1; rmdir $CG
