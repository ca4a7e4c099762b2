# Writes per-rank JSONL shards of a synthetic regression task.
# usage: make_jsonl_shards.py OUTDIR WORLD N_PER_SHARD [--break RANK:INDEX:KIND]
import argparse, json, os, random

p = argparse.ArgumentParser()
p.add_argument("outdir")
p.add_argument("world", type=int)
p.add_argument("n", type=int)
p.add_argument("--dim", type=int, default=16)
p.add_argument("--break", dest="brk", action="append", default=[],
               help="RANK:INDEX:KIND with KIND in missing_label|bad_utf8|inf|short")
a = p.parse_args()
os.makedirs(a.outdir, exist_ok=True)
w = [((i * 37) % 11 - 5) / 5.0 for i in range(a.dim)]
breaks = {}
for b in a.brk:
    r, i, k = b.split(":")
    breaks[(int(r), int(i))] = k
for r in range(a.world):
    rnd = random.Random(1000 + r)
    with open(os.path.join(a.outdir, f"train-{r:05d}-of-{a.world:05d}.jsonl"), "wb") as f:
        for i in range(a.n):
            x = [round(rnd.gauss(0, 1), 4) for _ in range(a.dim)]
            y = round(sum(xi * wi for xi, wi in zip(x, w)) + rnd.gauss(0, 0.05), 4)
            rec = {"id": f"s{r}-{i:06d}", "x": x, "label": y}
            k = breaks.get((r, i))
            if k == "missing_label":
                rec = {"id": rec["id"], "x": x, "lable": y}
            elif k == "inf":
                rec["x"][3] = 1e39  # overflows float32 -> inf
            elif k == "short":
                rec["x"] = x[: a.dim - 3]
            line = json.dumps(rec).encode()
            if k == "bad_utf8":
                line = line[:20] + b"\xff\xfe" + line[22:]
            f.write(line + b"\n")
print("wrote", a.world, "shards of", a.n, "records to", a.outdir)
