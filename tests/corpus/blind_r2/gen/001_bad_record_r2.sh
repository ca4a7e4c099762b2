#!/bin/bash
# torchrun, 4 workers, --log-dir with --tee 3 (per-rank logs + console)
set -u
RUN=/work/blind/r2/runs/001_bad_record_r2; DATA=/work/blind/r2/data/001
rm -rf $RUN $DATA; mkdir -p $RUN $DATA
/work/blind/venv/bin/python - <<'PY'
import json, random
random.seed(1)
for r in range(4):
    with open(f"/work/blind/r2/data/001/train-{r:05d}-of-00004.jsonl", "w") as f:
        for i in range(80):
            line = json.dumps({"id": f"{r}-{i}", "features": [random.random() for _ in range(8)], "target": random.random()})
            if r == 2 and i == 53:
                line = line[:57]   # truncated record (torn upload)
            f.write(line + "\n")
PY
cd $RUN
export OMP_NUM_THREADS=1
/work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 29611 --log-dir $RUN/torchrun_logs --tee 3 \
    /work/blind/r2/gen/001_bad_record_r2.py > console.log 2>&1
echo "exit code $?" 
