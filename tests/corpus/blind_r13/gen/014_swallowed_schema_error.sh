#!/bin/bash
# sft-002.jsonl was concatenated from two exports; from record 1371 on it uses the old schema ("tokens" instead of "input_ids")
R=/work/blind/r13/runs/014_swallowed_schema_error
rm -rf $R /tmp/r13_014 && mkdir -p $R /tmp/r13_014 && cd $R
/work/blind/venv/bin/python - <<'PY'
import json, random
for r in range(4):
    rnd = random.Random(r)
    with open(f"/tmp/r13_014/sft-{r:03d}.jsonl", "w") as f:
        for i in range(2400):
            ids = [rnd.randrange(1000) for _ in range(rnd.randrange(10, 40))]
            key = "tokens" if (r == 2 and i >= 1371) else "input_ids"
            f.write(json.dumps({"id": f"s{r}-{i}", key: ids}) + "\n")
PY
export SLURM_CONF=/work/blind/slurm/slurm.conf OMP_NUM_THREADS=1
timeout 120 srun -J sft --label -n 4 --kill-on-bad-exit=1 /work/blind/venv/bin/python -u /work/blind/r13/gen/014_swallowed_schema_error.py > $R/sft_run.log 2>&1
echo "srun exit status $?" >> $R/sft_run.log
rm -rf /tmp/r13_014
