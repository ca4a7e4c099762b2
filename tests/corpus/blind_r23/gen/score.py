#!/usr/bin/env python3
"""Score the frozen denpex once on /work/blind/r23/runs against labels.jsonl."""
import json
import os
import subprocess

R = "/work/blind/r23"
DENPEX = f"{R}/tool/.venv/bin/denpex"
os.makedirs(f"{R}/work/raw", exist_ok=True)
labels = [json.loads(l) for l in open(f"{R}/labels.jsonl")]
out = []
for lab in labels:
    run = lab["run"]
    cwd = f"{R}/runs/{run}"
    try:
        p = subprocess.run([DENPEX, "diagnose", "--json", "."], cwd=cwd, capture_output=True, text=True,
                           timeout=300)
        rc, so, se = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, so, se = "timeout", (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""), "timeout after 300 s"
    with open(f"{R}/work/raw/{run}.json", "w") as f:
        f.write(so)
    if se:
        with open(f"{R}/work/raw/{run}.stderr.txt", "w") as f:
            f.write(se)
    pred_class = pred_rank = rule = None
    nd = nu = None
    try:
        j = json.loads(so)
        diags = j.get("diagnoses") or []
        nd = len(diags)
        un = j.get("unrecognised")
        if un is None:
            un = j.get("unrecognized")
        nu = len(un) if isinstance(un, list) else (un if isinstance(un, int) else None)
        if diags:
            d0 = diags[0]
            pred_class = d0.get("class")
            pred_rank = d0.get("initiating_rank")
            rule = (d0.get("attribution") or {}).get("rule")
        else:
            pred_class = "healthy"
    except Exception as e:  # noqa: BLE001
        se = (se or "") + f" [json parse error: {e}]"
    lc, la, lr = lab["class"], lab.get("alt_class"), lab["initiating_rank"]
    out.append({
        "run": run, "label_class": lc, "label_rank": lr, "pred_class": pred_class, "pred_rank": pred_rank,
        "rule": rule, "n_diagnoses": nd, "n_unrecognised": nu,
        "class_ok": pred_class == lc, "class_ok_alt": pred_class in {lc, la},
        "rank_ok": None if lr is None else pred_rank == lr, "rc": rc, "stderr": (se or "")[:300],
    })
with open(f"{R}/scores.jsonl", "w") as f:
    for o in out:
        f.write(json.dumps(o) + "\n")
n = len(out)
h = [o for o in out if o["label_class"] == "healthy"]
ranked = [o for o in out if o["label_rank"] is not None]
print(f"class {sum(o['class_ok'] for o in out)}/{n}, with alt {sum(o['class_ok_alt'] for o in out)}/{n}, "
      f"rank {sum(bool(o['rank_ok']) for o in ranked)}/{len(ranked)}, "
      f"healthy flagged {sum(o['pred_class'] != 'healthy' for o in h)}/{len(h)}")
for o in out:
    print(f"{o['run']:34s} {str(o['label_class']):28s} {str(o['label_rank']):5s} -> {str(o['pred_class']):28s} "
          f"{str(o['pred_rank']):5s} {str(o['rule']):30s} {'OK' if o['class_ok_alt'] else 'XX'} "
          f"{'' if o['rank_ok'] is None else ('r-ok' if o['rank_ok'] else 'r-XX')} rc={o['rc']}")
