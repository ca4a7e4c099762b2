#!/usr/bin/env python
"""makedata.py OUT.jsonl N [IDX:FIELD=VALUE ...]  (VALUE is JSON; FIELD=-  deletes the field)"""
import json, random, sys
out, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(7)
rows = []
for i in range(n):
    k = rnd.randint(3, 10)
    rows.append({"id": f"s{i:05d}", "ids": " ".join(str(rnd.randint(1, 60)) for _ in range(k)), "label": rnd.randint(0, 3), "aux": True})
for spec in sys.argv[3:]:
    idx, kv = spec.split(":", 1)
    f, v = kv.split("=", 1)
    if idx == "*":
        sel = range(n)
    elif "m" in idx:  # r1m2: every index i with i % 2 == 1
        a, b = idx[1:].split("m")
        sel = [i for i in range(n) if i % int(b) == int(a)]
    else:
        sel = [int(idx)]
    for i in sel:
        if v == "-":
            rows[i].pop(f, None)
        else:
            rows[i][f] = json.loads(v)
with open(out, "w") as fh:
    for r in rows:
        fh.write(json.dumps(r) + "\n")
