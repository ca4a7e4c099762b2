import json, subprocess, os
out = open("/work/blind/r6/scores.jsonl", "w")
env = dict(os.environ, PYTHONPATH="/work/blind/r6/denpex")
for line in open("/work/blind/r6/labels.jsonl"):
    L = json.loads(line)
    p = subprocess.run(["/work/main/.venv/bin/python", "-m", "bot.cli", "diagnose", "--json", *L["inputs"]],
                       cwd="/tmp", env=env, capture_output=True, text=True, timeout=600)
    try:
        j = json.loads(p.stdout); d = j.get("diagnoses") or []
    except Exception as e:
        j, d = {}, []
    pred_class = d[0]["class"] if d else "healthy"
    pred_rank = j.get("initiating_rank", d[0].get("initiating_rank") if d else None) if d else None
    rule = (d[0].get("attribution") or {}).get("rule") if d else None
    rec = dict(run=L["run"], label_class=L["class"], label_rank=L["initiating_rank"], pred_class=pred_class,
               pred_rank=pred_rank, rule=rule, n_diagnoses=len(d), other_classes=[x["class"] for x in d[1:]],
               class_ok=pred_class == L["class"],
               rank_ok=(pred_rank == L["initiating_rank"]) if L["initiating_rank"] is not None else None,
               rc=p.returncode, stderr=p.stderr[-500:])
    out.write(json.dumps(rec) + "\n"); out.flush()
    print(json.dumps({k: rec[k] for k in ("run","label_class","label_rank","pred_class","pred_rank","rule","other_classes","class_ok","rank_ok","rc")}))
