#!/bin/bash
# malformed JSONL sample in rank 2's shard; sbatch + srun --kill-on-bad-exit
source /work/blind/r20/gen/common.sh
D=$R/012_jsonl_corpus; rm -rf $D; mkdir -p $D; cd $W
S=$W/data012; rm -rf $S; mkdir -p $S
$PY - <<PY
import json
for r in range(3):
    with open(f"$S/train-{r:03d}.jsonl","w") as f:
        for i in range(300):
            line = json.dumps({"id": f"{r}-{i}", "text": "the quick brown fox %d" % i})
            if r == 2 and i == 137:
                line = line[:31]  # record cut by the upstream dedup job
            f.write(line + "\n")
PY
export DATA_DIR=$S FAULT=jsonl NSTEPS=40 FMT=plain
sbatch --wait -o $D/slurm-%j.out $G/job012.sbatch
echo rc=$?
