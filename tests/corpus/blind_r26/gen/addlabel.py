"""addlabel.py '<json>' : insert/replace one label (by run) in /work/blind/r26/labels.jsonl, kept sorted."""
import json, sys
P = "/work/blind/r26/labels.jsonl"
new = json.loads(sys.argv[1])
keys = ["run", "inputs", "class", "initiating_rank", "alt_class", "launcher", "how", "evidence"]
assert set(new) == set(keys), set(new) ^ set(keys)
try:
    rows = [json.loads(l) for l in open(P) if l.strip()]
except FileNotFoundError:
    rows = []
rows = [r for r in rows if r["run"] != new["run"]] + [new]
rows.sort(key=lambda r: r["run"])
with open(P, "w") as f:
    for r in rows:
        f.write(json.dumps({k: r[k] for k in keys}) + "\n")
print(len(rows), "labels")
