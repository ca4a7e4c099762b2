"""Synthetic jsonl shards: python mkdata.py OUT NRANKS [--n 2000] [--bad R:LINE] [--short R:N] [--f64 R:LINE] [--side]"""
import argparse, json, os, random
p = argparse.ArgumentParser()
p.add_argument("out"); p.add_argument("nranks", type=int)
p.add_argument("--n", type=int, default=2000); p.add_argument("--dim", type=int, default=16)
p.add_argument("--bad"); p.add_argument("--short"); p.add_argument("--f64"); p.add_argument("--side", action="store_true"); p.add_argument("--badlabel")
p.add_argument("--skip", type=int, default=-1, help="do not write this rank's shard")
a = p.parse_args()
os.makedirs(a.out, exist_ok=True)
rnd = random.Random(1)
W = [[rnd.gauss(0, 1) for _ in range(a.dim)] for _ in range(4)]
def spec(s):
    if not s: return (-1, -1)
    r, l = s.split(":"); return int(r), int(l)
bad, short, f64, badlabel = spec(a.bad), spec(a.short), spec(a.f64), spec(a.badlabel)
for r in range(a.nranks):
    if r == a.skip: continue
    n = short[1] if short[0] == r else a.n
    with open(f"{a.out}/shard_{r}.jsonl", "w") as f:
        for i in range(n):
            x = [rnd.gauss(0, 1) for _ in range(a.dim)]
            y = max(range(4), key=lambda c: sum(w * v for w, v in zip(W[c], x)))
            rec = {"id": f"{r}-{i}", "x": [round(v, 4) for v in x], "y": y}
            if f64 == (r, i): rec["dtype"] = "float64"
            if badlabel == (r, i): rec["y"] = 7
            line = json.dumps(rec)
            if bad == (r, i): line = line[: len(line) // 2]  # truncated record
            f.write(line + "\n")
if a.side:
    os.makedirs(f"{a.out}/side", exist_ok=True)
    for i in range(500):
        open(f"{a.out}/side/{i}.bin", "wb").write(os.urandom(64))
