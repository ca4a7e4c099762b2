"""Score the frozen denpex on /work/blind/r26/runs once. Writes work/raw/<run>.json and scores.jsonl."""
import json
import os
import subprocess

R = "/work/blind/r26"
DENPEX = f"{R}/tool/.venv/bin/denpex"
os.makedirs(f"{R}/work/raw", exist_ok=True)
labels = [json.loads(l) for l in open(f"{R}/labels.jsonl")]
out = []
for lab in labels:
    run = lab["run"]
    cwd = f"{R}/runs/{run}"
    try:
        p = subprocess.run([DENPEX, "diagnose", "--json", *lab["inputs"]], cwd=cwd, capture_output=True,
                           text=True, timeout=300)
        rc, stdout, stderr = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, stdout, stderr = "timeout", (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout after 300 s"
    with open(f"{R}/work/raw/{run}.json", "w") as f:
        f.write(stdout)
    try:
        rep = json.loads(stdout)
    except Exception:
        rep = {}
    diags = rep.get("diagnoses") or []
    d0 = diags[0] if diags else None
    pred_class = d0["class"] if d0 else "healthy"
    pred_rank = d0.get("initiating_rank") if d0 else None
    rule = ((d0 or {}).get("attribution") or {}).get("rule")
    lc, lr, alt = lab["class"], lab["initiating_rank"], lab["alt_class"]
    class_ok = pred_class == lc
    rec = {"run": run, "label_class": lc, "label_rank": lr, "pred_class": pred_class, "pred_rank": pred_rank,
           "rule": rule, "n_diagnoses": len(diags), "n_unrecognised": len(rep.get("unrecognised") or []),
           "class_ok": class_ok, "class_ok_alt": class_ok or (alt is not None and pred_class == alt),
           "rank_ok": None if lr is None else (pred_rank == lr), "rc": rc, "stderr": (stderr or "")[:300]}
    out.append(rec)
    print(json.dumps(rec))
with open(f"{R}/scores.jsonl", "w") as f:
    for r in out:
        f.write(json.dumps(r) + "\n")
n = len(out)
fail = [r for r in out if r["label_class"] != "healthy"]
heal = [r for r in out if r["label_class"] == "healthy"]
ranked = [r for r in out if r["rank_ok"] is not None]
print(f"class {sum(r['class_ok'] for r in out)}/{n}  with alt {sum(r['class_ok_alt'] for r in out)}/{n}")
print(f"failing-only class {sum(r['class_ok'] for r in fail)}/{len(fail)}  with alt {sum(r['class_ok_alt'] for r in fail)}/{len(fail)}")
print(f"rank {sum(r['rank_ok'] for r in ranked)}/{len(ranked)}")
print(f"healthy flagged (predicted a failure) {sum(r['pred_class'] != 'healthy' for r in heal)}/{len(heal)}")
