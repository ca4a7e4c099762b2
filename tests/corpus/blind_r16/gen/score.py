import json, subprocess, os
DEN = "/work/blind/r16/tool/.venv/bin/denpex"
out = []
for line in open("/work/blind/r16/labels.jsonl"):
    lab = json.loads(line)
    rd = os.path.join("/work/blind/r16/runs", lab["run"])
    p = subprocess.run([DEN, "diagnose", "--json", *lab["inputs"]], cwd=rd, capture_output=True, text=True, timeout=600)
    try:
        j = json.loads(p.stdout)
    except Exception:
        j = {}
    diags = j.get("diagnoses") or []
    if diags:
        d0 = diags[0]
        pc, pr = d0.get("class"), d0.get("initiating_rank")
        rule = (d0.get("attribution") or {}).get("rule")
    else:
        pc, pr, rule = "healthy", None, None
    lr = lab["initiating_rank"]
    rec = {"run": lab["run"], "label_class": lab["class"], "label_rank": lr, "pred_class": pc, "pred_rank": pr,
           "rule": rule, "n_diagnoses": len(diags), "n_unrecognised": len(j.get("unrecognised") or []),
           "class_ok": pc == lab["class"], "rank_ok": (pr == lr) if lr is not None else None,
           "alt_ok": pc == lab.get("alt_class"), "rc": p.returncode, "stderr": p.stderr[:300]}
    out.append(rec)
    with open(f"/work/blind/r16/raw/{lab['run']}.json", "w") as f:
        f.write(p.stdout)
with open("/work/blind/r16/scores.jsonl", "w") as f:
    for r in out:
        f.write(json.dumps(r) + "\n")
