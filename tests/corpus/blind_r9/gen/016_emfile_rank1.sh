#!/bin/bash
R=/work/blind/r9/runs/016_emfile_rank1; rm -rf $R; mkdir -p $R/logs $R/data; cd $R
/work/blind/venv/bin/python - <<'P'
import os, json, random
random.seed(0)
root = "/work/blind/r9/runs/016_emfile_rank1/data"
for r, n in [(0, 40), (1, 600), (2, 40)]:
    d = f"{root}/split{r}"; os.makedirs(d)
    for i in range(n):
        with open(f"{d}/part-{i:05d}.jsonl", "w") as f:
            for _ in range(3): f.write(json.dumps({"x": [random.random() for _ in range(16)]}) + "\n")
P
export OMP_NUM_THREADS=1
ulimit -n 256     # the site's default soft limit for batch jobs
timeout 90 /work/blind/venv/bin/python /work/blind/r9/gen/016_emfile_rank1.py $R/data $R/logs > $R/logs/launcher.out 2>&1
echo "exit=$?" >> $R/logs/launcher.out
