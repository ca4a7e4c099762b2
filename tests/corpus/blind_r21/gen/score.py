import json, subprocess, os
labels = [json.loads(l) for l in open("/work/blind/r21/labels.jsonl")]
out = open("/work/blind/r21/scores.jsonl", "w")
os.makedirs("/work/blind/r21/work/raw", exist_ok=True)
for lb in labels:
    d = f"/work/blind/r21/runs/{lb['run']}"
    p = subprocess.run(["/work/blind/r21/tool/.venv/bin/denpex", "diagnose", "--json", "."], cwd=d, capture_output=True, text=True, timeout=300)
    open(f"/work/blind/r21/work/raw/{lb['run']}.json", "w").write(p.stdout)
    pred_class = pred_rank = rule = None; nd = nu = None
    try:
        j = json.loads(p.stdout)
        diags = j.get("diagnoses", [])
        nd = len(diags)
        un = j.get("unrecognised", j.get("unrecognized"))
        nu = len(un) if isinstance(un, list) else un
        if diags:
            pred_class = diags[0].get("class"); pred_rank = diags[0].get("initiating_rank")
            rule = (diags[0].get("attribution") or {}).get("rule")
        else:
            pred_class = "healthy"
    except Exception as e:
        pred_class = f"ERROR:{e}"
    lr = lb["initiating_rank"]
    rec = dict(run=lb["run"], label_class=lb["class"], label_rank=lr, pred_class=pred_class, pred_rank=pred_rank, rule=rule,
               n_diagnoses=nd, n_unrecognised=nu, class_ok=pred_class == lb["class"],
               class_ok_alt=pred_class in (lb["class"], lb["alt_class"]),
               rank_ok=None if lr is None else pred_rank == lr, rc=p.returncode, stderr=p.stderr[:300])
    out.write(json.dumps(rec) + "\n")
    print(json.dumps(rec))
