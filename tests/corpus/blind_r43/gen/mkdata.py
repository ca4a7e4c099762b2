#!/usr/bin/env python3
"""Write real data shards for the runs: mkdata.py KIND DIR WORLD [args...]"""
import json, os, sys, random
import numpy as np
kind, d, world = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(d, exist_ok=True)
rng = random.Random(7)
W = np.random.default_rng(0).standard_normal(32)
def batch(width=32, bad=None):
    x = [[round(rng.gauss(0, 1), 4) for _ in range(width)] for _ in range(16)]
    if bad == "huge":
        x[3][5] = 1e39  # overflows float32 -> inf
    y = [round(float(np.dot(r[:32], W[:len(r[:32])])), 4) for r in x]
    return {"x": x, "y": y}
if kind == "jsonl":  # jsonl DIR WORLD NLINES [rank:line:defect ...] defects: trunc, width31, huge, short
    n = int(sys.argv[4])
    defects = {}
    for a in sys.argv[5:]:
        r, ln, what = a.split(":")
        defects[int(r)] = (int(ln), what)
    for r in range(world):
        ln_bad, what = defects.get(r, (-1, None))
        with open(os.path.join(d, f"shard-{r:05d}.jsonl"), "w") as f:
            for ln in range(1, n + 1):
                if what == "short" and ln == ln_bad:
                    break
                if ln == ln_bad and what == "trunc":
                    s = json.dumps(batch())
                    f.write(s[: len(s) // 3] + "\n")  # torn write from the preprocessing job
                elif ln == ln_bad and what == "width31":
                    f.write(json.dumps(batch(31)) + "\n")
                elif ln == ln_bad and what == "huge":
                    f.write(json.dumps(batch(bad="huge")) + "\n")
                else:
                    f.write(json.dumps(batch()) + "\n")
elif kind == "npy":  # npy DIR WORLD BADRANK: part-0 float32 everywhere, part-1 float64 on BADRANK
    bad = int(sys.argv[4])
    for r in range(world):
        os.makedirs(os.path.join(d, f"part-r{r}"), exist_ok=True)
        for k in range(3):
            x = np.random.default_rng(r * 10 + k).standard_normal((16 * 400, 32))
            a = np.concatenate([x, (x @ W)[:, None]], axis=1)
            a = a.astype(np.float64 if (r == bad and k == 1) else np.float32)
            np.save(os.path.join(d, f"part-r{r}", f"part-{k}.npy"), a)
elif kind == "chunks":  # chunks DIR WORLD BADRANK NCHUNKS_BAD
    bad, nb = int(sys.argv[4]), int(sys.argv[5])
    for r in range(world):
        cd = os.path.join(d, f"chunks-r{r}")
        os.makedirs(cd, exist_ok=True)
        nchunks = nb if r == bad else 4
        per = 1 if r == bad else 400
        for k in range(nchunks):
            with open(os.path.join(cd, f"chunk-{k:05d}.jsonl"), "w") as f:
                for _ in range(per):
                    f.write(json.dumps(batch()) + "\n")
