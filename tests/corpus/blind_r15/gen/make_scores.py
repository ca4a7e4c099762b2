import json
rows = []
for line in open("/work/blind/r15/labels.jsonl"):
    lab = json.loads(line); run = lab["run"]
    raw = open(f"/work/blind/r15/out/{run}.json").read()
    rc = int(open(f"/work/blind/r15/out/{run}.rc").read())
    err = open(f"/work/blind/r15/out/{run}.stderr").read()
    try:
        j = json.loads(raw)
    except Exception:
        j = {"diagnoses": []}
    ds = j.get("diagnoses", [])
    if ds:
        d0 = ds[0]; pc = d0.get("class"); pr = d0.get("initiating_rank")
        rule = (d0.get("attribution") or {}).get("rule")
    else:
        pc, pr, rule = "healthy", None, None
    ok_classes = {lab["class"]} | ({lab["alt_class"]} if lab.get("alt_class") else set())
    lr = lab["initiating_rank"]
    rows.append({"run": run, "label_class": lab["class"], "label_rank": lr, "pred_class": pc, "pred_rank": pr,
                 "rule": rule, "n_diagnoses": len(ds), "n_unrecognised": len(j.get("unrecognised") or []),
                 "class_ok": pc in ok_classes, "rank_ok": (pr == lr) if lr is not None else None,
                 "rc": rc, "stderr": err[:300]})
with open("/work/blind/r15/scores.jsonl", "w") as f:
    for r in rows: f.write(json.dumps(r) + "\n")
fail = [r for r in rows if r["label_class"] != "healthy"]
rk = [r for r in rows if r["label_rank"] is not None]
hl = [r for r in rows if r["label_class"] == "healthy"]
print(f"class {sum(r['class_ok'] for r in fail)}/{len(fail)}  rank {sum(r['rank_ok'] for r in rk)}/{len(rk)}  healthy flagged {sum(r['n_diagnoses']>0 for r in hl)}/{len(hl)}")
for r in rows:
    print(f"{r['run']:45s} {r['label_class']:28s} {str(r['label_rank']):4s} | {r['pred_class']:28s} {str(r['pred_rank']):4s} {str(r['rule']):22s} c={r['class_ok']!s:5s} r={r['rank_ok']!s:5s} n={r['n_diagnoses']} u={r['n_unrecognised']} rc={r['rc']}")
