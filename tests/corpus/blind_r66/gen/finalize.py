# Renumber generation ids to contiguous 001.. and write labels.jsonl (run once).
import json, os, sys
sys.path.insert(0, os.path.dirname(__file__))
from labels_src import L
R = "/work/blind/r66/runs"
gens = sorted(L)
assert sorted(os.listdir(R)) == gens, (sorted(os.listdir(R)), gens)
mp = {g: f"{i+1:03d}" for i, g in enumerate(gens)}
for g in gens: os.rename(f"{R}/{g}", f"{R}/tmp_{g}")
for g in gens: os.rename(f"{R}/tmp_{g}", f"{R}/{mp[g]}")
with open("/work/blind/r66/labels.jsonl", "w") as f:
    for g in gens:
        e = L[g]; n = mp[g]
        for p in e["inputs"]: assert os.path.exists(f"{R}/{n}/{p}"), (n, p)
        assert sorted(os.listdir(f"{R}/{n}")) == sorted(e["inputs"]), (n, os.listdir(f"{R}/{n}"))
        f.write(json.dumps({"run": n, "inputs": e["inputs"], "class": e["cls"], "initiating_rank": e["rank"], "alt_class": e["alt"], "notes": e["notes"] + f" (generated as laneA/laneB id {g})"}) + "\n")
with open("/work/blind/r66/gen/renumber.txt", "w") as f:
    for g in gens: f.write(f"gen {g} -> run {mp[g]}\n")
