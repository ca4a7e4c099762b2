#!/bin/bash
# torchrun, 4 workers on one node, per-rank logs under --log-dir and teed to console for all ranks.
R=/work/blind/r11; RUN=$R/runs/001_jsonl_corrupt_sample; DATA=$R/scratch/001
rm -rf $RUN $DATA && mkdir -p $RUN $DATA && cd $RUN
# tokenized shards from the preprocessing job; shard 2 was cut short by a killed writer mid-record and later appended to
/work/blind/venv/bin/python - <<'PY'
import json, random
random.seed(1)
D="/work/blind/r11/scratch/001"
for r in range(4):
    with open(f"{D}/train-{r:05d}-of-00004.jsonl","w") as f:
        for i in range(600):
            ids=[random.randrange(1,512) for _ in range(random.randrange(20,60))]
            line=json.dumps({"id":f"doc-{r}-{i}","input_ids":ids})
            if r==2 and i==219: line=line[:len(line)//2]   # torn record, no newline fix
            f.write(line+"\n")
PY
export OMP_NUM_THREADS=1
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-addr 127.0.0.1 --master-port 31101 \
  --log-dir $RUN/elastic_logs --tee 3 \
  $R/gen/001_jsonl_corrupt_sample.py --data $DATA --steps 60 > console.log 2>&1
rm -rf $DATA
