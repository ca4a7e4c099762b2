#!/usr/bin/env python3
"""Score the frozen denpex on /work/blind/r22/runs once; raw outputs in work/raw, scores.jsonl."""
import json, os, subprocess
B = "/work/blind/r22"; BIN = f"{B}/tool/.venv/bin/denpex"
os.makedirs(f"{B}/work/raw", exist_ok=True)
labels = [json.loads(l) for l in open(f"{B}/labels.jsonl")]
out = []
for lab in sorted(labels, key=lambda l: l["run"]):
    run = lab["run"]; d = f"{B}/runs/{run}"
    try:
        p = subprocess.run([BIN, "diagnose", "--json", *lab["inputs"]], cwd=d, capture_output=True, text=True, timeout=300)
        rc, so, se = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, so, se = "timeout", (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout after 300 s"
    open(f"{B}/work/raw/{run}.json", "w").write(so)
    if se: open(f"{B}/work/raw/{run}.stderr", "w").write(se)
    pred_class = pred_rank = rule = None; nd = nu = None
    try:
        j = json.loads(so)
        diags = j.get("diagnoses") or []
        nd = len(diags)
        un = j.get("unrecognised", j.get("unrecognized"))
        nu = len(un) if isinstance(un, list) else (un if isinstance(un, int) else (0 if un is None else 1))
        if diags:
            d0 = diags[0]; pred_class = d0.get("class"); pred_rank = d0.get("initiating_rank")
            rule = (d0.get("attribution") or {}).get("rule")
        else:
            pred_class = "healthy"
    except Exception as e:
        pred_class = f"<no json: {e.__class__.__name__}>"
    lc, lr, alt = lab["class"], lab["initiating_rank"], lab.get("alt_class")
    out.append({"run": run, "label_class": lc, "label_rank": lr, "pred_class": pred_class, "pred_rank": pred_rank,
                "rule": rule, "n_diagnoses": nd, "n_unrecognised": nu, "class_ok": pred_class == lc,
                "class_ok_alt": pred_class in {lc, alt}, "rank_ok": None if lr is None else pred_rank == lr,
                "rc": rc, "stderr": se[:300]})
    print(json.dumps(out[-1]))
with open(f"{B}/scores.jsonl", "w") as f:
    for o in out: f.write(json.dumps(o) + "\n")
