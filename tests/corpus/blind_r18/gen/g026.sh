#!/bin/bash
# sbatch (--time=1 min) + srun --label. Rank 0 rebuilds the shared shard index at every epoch start under an
# exclusive flock on a shared-cache lock file. A stale process from an earlier job still holds that lock, so in
# epoch 1 rank 0 blocks in flock() forever; ranks 1-3 wait in the barrier (30 min process-group timeout), the job
# makes no progress, and Slurm kills it at the 1-minute limit ("CANCELLED ... DUE TO TIME LIMIT").
# The time limit is only how it ended: the cause is rank 0's hang.
source /work/blind/r18/gen/common.sh
newrun 026_index_lock_stall_timelimit
mkdir -p $WORK/cache/shards; touch $WORK/cache/shards/s{0..7}.bin
export SHARED_CACHE=$WORK/cache PY GEN
jid=$(sbatch --parsable $GEN/job026.sbatch); echo "job=$jid"
for i in $(seq 1 60); do sleep 1; grep -q "epoch 0 step 10 " slurm-$jid.out 2>/dev/null && break; done
# the stale holder grabs the lock after epoch 0's rebuild
$PY -c "
import fcntl, time
f = open('$WORK/cache/index.lock', 'a+'); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(400)
" & HOLDER=$!
for i in $(seq 1 300); do sleep 2; squeue -h -j $jid 2>/dev/null | grep -q . || break; done
echo "job gone after ~$((i*2)) s of polling"
kill $HOLDER
