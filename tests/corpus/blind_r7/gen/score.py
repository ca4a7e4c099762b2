import json, subprocess, os
out = open("/work/blind/r7/scores.jsonl", "w")
os.makedirs("/work/blind/r7/raw", exist_ok=True)
env = dict(os.environ, PYTHONPATH="/work/blind/r7/denpex")
for line in open("/work/blind/r7/labels.jsonl"):
    lab = json.loads(line)
    p = subprocess.run(["/work/main/.venv/bin/python", "-m", "bot.cli", "diagnose", "--json", *lab["inputs"]],
                       cwd="/tmp", env=env, capture_output=True, text=True, timeout=600)
    open(f"/work/blind/r7/raw/{lab['run']}.json", "w").write(p.stdout)
    try:
        j = json.loads(p.stdout); diags = j.get("diagnoses", [])
    except Exception:
        j = None; diags = []
    d0 = diags[0] if diags else {}
    pred_class = d0.get("class", "healthy") if diags else "healthy"
    pred_rank = d0.get("initiating_rank") if diags else None
    rule = (d0.get("attribution") or {}).get("rule") if diags else None
    rec = {"run": lab["run"], "label_class": lab["class"], "label_rank": lab["initiating_rank"],
           "pred_class": pred_class, "pred_rank": pred_rank, "rule": rule, "n_diagnoses": len(diags),
           "other_classes": [d.get("class") for d in diags[1:]],
           "class_ok": pred_class == lab["class"],
           "rank_ok": (pred_rank == lab["initiating_rank"]) if lab["initiating_rank"] is not None else None,
           "rc": p.returncode, "stderr": p.stderr[-500:]}
    out.write(json.dumps(rec) + "\n"); out.flush()
    print(rec["run"], rec["label_class"], rec["label_rank"], "->", pred_class, pred_rank, rule, rec["class_ok"], rec["rank_ok"], p.returncode)
