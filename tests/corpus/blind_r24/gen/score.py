"""Score the frozen denpex tool once over /work/blind/r24/runs (raw output kept in work/raw)."""
import json, os, subprocess, sys

R = "/work/blind/r24"
TOOL = f"{R}/tool/.venv/bin/denpex"
RAW = f"{R}/work/raw"
os.makedirs(RAW, exist_ok=True)
labels = [json.loads(l) for l in open(f"{R}/labels.jsonl")]
out = []
for lab in labels:
    run = lab["run"]
    d = f"{R}/runs/{run}"
    try:
        p = subprocess.run([TOOL, "diagnose", "--json", *lab["inputs"]], cwd=d, capture_output=True, text=True, timeout=300)
        rc, so, se = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, so, se = "timeout", (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout after 300 s"
    open(f"{RAW}/{run}.json", "w").write(so)
    if se:
        open(f"{RAW}/{run}.stderr", "w").write(se)
    pred_class = pred_rank = rule = None
    n_diag = n_unrec = None
    try:
        j = json.loads(so)
        diags = j.get("diagnoses") or []
        n_diag = len(diags); n_unrec = len(j.get("unrecognised") or [])
        if diags:
            d0 = diags[0]
            pred_class = d0.get("class"); pred_rank = d0.get("initiating_rank")
            rule = (d0.get("attribution") or {}).get("rule")
        else:
            pred_class = "healthy"   # as the brief defines it; n_unrecognised / not_a_log kept separately
    except Exception as e:
        se = (se or "") + f" [json parse error: {e}]"
    lc, lr, alt = lab["class"], lab["initiating_rank"], lab["alt_class"]
    class_ok = pred_class == lc
    rec = {"run": run, "label_class": lc, "label_rank": lr, "pred_class": pred_class, "pred_rank": pred_rank,
           "rule": rule, "n_diagnoses": n_diag, "n_unrecognised": n_unrec, "class_ok": class_ok,
           "class_ok_alt": class_ok or (alt is not None and pred_class == alt),
           "rank_ok": None if lr is None else (pred_rank == lr), "rc": rc, "stderr": (se or "")[:300]}
    out.append(rec)
    print(json.dumps(rec), flush=True)
with open(f"{R}/scores.jsonl", "w") as f:
    for r in out:
        f.write(json.dumps(r) + "\n")
N = len(out); H = [r for r in out if r["label_class"] == "healthy"]; F = [r for r in out if r["label_class"] != "healthy"]
M = [r for r in out if r["label_rank"] is not None]
print(f"class {sum(r['class_ok'] for r in out)}/{N}, with alt {sum(r['class_ok_alt'] for r in out)}/{N}; "
      f"failing-only class {sum(r['class_ok'] for r in F)}/{len(F)} (alt {sum(r['class_ok_alt'] for r in F)}); "
      f"rank {sum(bool(r['rank_ok']) for r in M)}/{len(M)}; healthy flagged (any diagnosis) {sum(r['pred_class'] != 'healthy' for r in H)}/{len(H)}, "
      f"(any diagnosis or unrecognised) {sum(r['pred_class'] != 'healthy' or bool(r['n_unrecognised']) for r in H)}/{len(H)}")
