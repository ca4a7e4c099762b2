#!/bin/bash
R=/work/blind/r7/runs/014_early_exit_zero; rm -rf $R; mkdir -p $R; cd $R
export OMP_NUM_THREADS=1 MANIFEST=$R/manifest.json
/work/blind/venv/bin/python - <<'PY'
import json
langs = ["en", "de", "fr", "en"] * 6          # index i%4==2 are all 'fr' -> rank 2 gets nothing
json.dump([{"path": f"s3://bucket/part-{i:03d}.jsonl", "lang": l, "n": 8} for i, l in enumerate(langs)],
          open("/work/blind/r7/runs/014_early_exit_zero/manifest.json", "w"))
PY
timeout 90 /work/blind/venv/bin/torchrun --nproc-per-node 4 --master-port 29814 --redirects 1 --log-dir $R/torchrun_logs \
   /work/blind/r7/gen/014_early_exit_zero.py > $R/console.log 2>&1
echo "exit=$?"
