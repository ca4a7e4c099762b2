#!/bin/bash
# sbatch + srun steps (slurm-%j.out). Rank 1's data part has 640 samples -> total_steps == warmup == 40;
# the cosine schedule divides by (total_steps - warmup) at step 40: ZeroDivisionError on rank 1 only.
# The other ranks then fail in the gradient all_reduce with the peer gone.
source /work/blind/r18/gen/common.sh
newrun 006_cosine_schedule_zero_div
mkdir -p $WORK/shards
for r in 0 1 2 3; do if [ $r = 1 ]; then echo 640 > $WORK/shards/part-$r.count; else echo 960 > $WORK/shards/part-$r.count; fi; done
export SHARD_DIR=$WORK/shards PY GEN
jid=$(sbatch --parsable --wait $GEN/job006.sbatch); echo "rc=$? job=$jid"
