import json, subprocess, os
R = "/work/blind/r17"
out = open(f"{R}/scores.jsonl", "w")
for line in open(f"{R}/labels.jsonl"):
    lab = json.loads(line)
    run = lab["run"]
    p = subprocess.run([f"{R}/tool/.venv/bin/denpex", "diagnose", "--json", *lab["inputs"]],
                       cwd=f"{R}/runs/{run}", capture_output=True, text=True, timeout=300)
    open(f"{R}/raw/{run}.json", "w").write(p.stdout)
    try:
        j = json.loads(p.stdout)
    except Exception:
        j = {}
    diags = j.get("diagnoses") or []
    if diags:
        pc = diags[0].get("class"); pr = diags[0].get("initiating_rank")
        rule = (diags[0].get("attribution") or {}).get("rule")
    else:
        pc, pr, rule = "healthy", None, None
    rec = {"run": run, "label_class": lab["class"], "label_rank": lab["initiating_rank"], "pred_class": pc,
           "pred_rank": pr, "rule": rule, "n_diagnoses": len(diags), "n_unrecognised": len(j.get("unrecognised") or []),
           "class_ok": pc == lab["class"]}
    if lab["initiating_rank"] is not None:
        rec["rank_ok"] = pr == lab["initiating_rank"]
    rec["rc"] = p.returncode; rec["stderr"] = p.stderr[:300]
    out.write(json.dumps(rec) + "\n"); out.flush()
    print(run, lab["class"], lab["initiating_rank"], "|", pc, pr, rule, p.returncode)
