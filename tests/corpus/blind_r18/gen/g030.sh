#!/bin/bash
# HEALTHY. srun --label, 4 tasks. Rank 2's part has two malformed JSON records; the loader catches the
# JSONDecodeError/KeyError, logs it with logging.exception (full "Traceback (most recent call last)" in the log),
# substitutes a zero row and carries on. All ranks finish; srun exits 0.
source /work/blind/r18/gen/common.sh
newrun 030_healthy_skipped_bad_records
mkdir -p $WORK/data
$PY -c "
import json, random
for r in range(4):
    rnd = random.Random(r)
    with open('$WORK/data/part-%d.jsonl' % r, 'w') as f:
        for i in range(320):
            if r == 2 and i == 77: f.write('{\"f\": [0.1, 0.2, 0.3\n'); continue
            if r == 2 and i == 203: f.write(json.dumps({'feat': [0.0]*32}) + '\n'); continue
            f.write(json.dumps({'f': [rnd.gauss(0, 1) for _ in range(32)]}) + '\n')
"
export DATA_DIR=$WORK/data MASTER_ADDR=127.0.0.1 MASTER_PORT=23030
srun -n 4 --label -J tabular-ft $PY $GEN/p030_skipbad.py > job.log 2>&1
echo "rc=$?"
