#!/bin/bash
# runs the frozen tool once per labelled run, saving stdout JSON, stderr and rc
mkdir -p /work/blind/r15/out
/work/blind/venv/bin/python - <<'PY'
import json, subprocess, os
for line in open("/work/blind/r15/labels.jsonl"):
    d = json.loads(line)
    run = d["run"]
    cwd = f"/work/blind/r15/runs/{run}"
    p = subprocess.run(["/work/blind/r15/tool/.venv/bin/denpex", "diagnose", "--json", *d["inputs"]], cwd=cwd,
                       capture_output=True, text=True, timeout=600)
    open(f"/work/blind/r15/out/{run}.json", "w").write(p.stdout)
    open(f"/work/blind/r15/out/{run}.stderr", "w").write(p.stderr)
    open(f"/work/blind/r15/out/{run}.rc", "w").write(str(p.returncode))
    print(run, p.returncode, len(p.stdout), p.stderr[:100].replace("\n", " "))
PY
