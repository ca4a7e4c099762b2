#!/bin/bash
# sbatch, 3 tasks, --time=1; srun --label. Rank 1's data file has a record with "content" instead of "text" at line 230.
set -u
source /work/blind/r24/gen/common.sh
export SLURM_CONF=/work/blind/slurm24/slurm.conf
N=012_slurm_tokenizer_thread; W=$R/work/j012; OUT=$W/out; FINAL=$R/runs/$N
rm -rf $FINAL $W; mkdir -p $OUT $W/data; cd $W
$PY - <<PYEOF
import json, random
for r in range(3):
    rnd = random.Random(r)
    with open(f"$W/data/part-{r:05d}.jsonl", "w") as f:
        for i in range(4000):
            words = " ".join(rnd.choice(["the","model","data","token","shard","loss","grad","step"]) for _ in range(rnd.randint(5, 40)))
            rec = {"id": f"{r}-{i}", "text": words}
            if r == 1 and i == 230:
                rec = {"id": f"{r}-{i}", "content": words}   # upstream schema change in one source
            f.write(json.dumps(rec) + "\n")
PYEOF
JID=$(sbatch --parsable $R/gen/012_slurm_tokenizer_thread.sbatch)
echo "job $JID"
for i in $(seq 1 80); do squeue -h -j $JID 2>/dev/null | grep -q . || break; sleep 3; done
sacct -j $JID -o JobID,State,ExitCode,Elapsed 2>/dev/null || true
scontrol show job $JID | grep -E 'JobState|RunTime|TimeLimit' || true
# hand-over: copy what the user would give the tool
rm -rf $FINAL; mkdir -p $FINAL; cp -a $OUT/. $FINAL/
