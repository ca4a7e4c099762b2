"""Score the frozen denpex once on the r18 runs. Writes raw/<run>.json and scores.jsonl."""
import json, os, subprocess

R18 = "/work/blind/r18"
DENPEX = f"{R18}/tool/.venv/bin/denpex"
labels = [json.loads(l) for l in open(f"{R18}/labels.jsonl")]
os.makedirs(f"{R18}/raw", exist_ok=True)
out = open(f"{R18}/scores.jsonl", "w")
for lab in labels:
    run = lab["run"]
    cwd = f"{R18}/runs/{run}"
    try:
        p = subprocess.run([DENPEX, "diagnose", "--json", *lab["inputs"]], cwd=cwd, capture_output=True, text=True,
                           timeout=300)
        rc, stdout, stderr = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, stdout, stderr = "timeout", e.stdout or "", (e.stderr or "") + " TIMEOUT"
        stdout = stdout.decode() if isinstance(stdout, bytes) else stdout
        stderr = stderr.decode() if isinstance(stderr, bytes) else stderr
    open(f"{R18}/raw/{run}.json", "w").write(stdout)
    try:
        d = json.loads(stdout)
    except Exception:
        d = None
    diags = (d or {}).get("diagnoses") or []
    if d is None:
        pred_class, pred_rank, rule = None, None, None
    elif not diags:
        pred_class, pred_rank, rule = "healthy", None, None
    else:
        top = diags[0]
        pred_class, pred_rank = top.get("class"), top.get("initiating_rank")
        rule = (top.get("attribution") or {}).get("rule")
    unrec = (d or {}).get("unrecognised")
    n_unrec = len(unrec) if isinstance(unrec, list) else unrec
    row = {"run": run, "label_class": lab["class"], "label_rank": lab["initiating_rank"], "pred_class": pred_class,
           "pred_rank": pred_rank, "rule": rule, "n_diagnoses": len(diags), "n_unrecognised": n_unrec,
           "class_ok": pred_class == lab["class"],
           "class_ok_alt": pred_class in (lab["class"], lab["alt_class"]),
           "rc": rc, "stderr": (stderr or "")[:300]}
    if lab["initiating_rank"] is not None:
        row["rank_ok"] = pred_rank == lab["initiating_rank"]
    out.write(json.dumps(row) + "\n"); out.flush()
    print(run, lab["class"], lab["initiating_rank"], "->", pred_class, pred_rank, rule, rc)
