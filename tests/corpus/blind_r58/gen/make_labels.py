import json, os, sys
sys.path.insert(0, os.path.dirname(__file__))
from labels_src import L
classes = set(l.split('`')[1] for l in open('/work/blind/classes.md') if l.startswith('- `')) | {"healthy", "unrecognised"}
base = '/work/blind/r58/runs'
seen = set()
out = open('/work/blind/r58/labels.jsonl', 'w')
for run, inputs, cls, rank, alt, notes in sorted(L):
    assert run not in seen, run; seen.add(run)
    assert cls in classes, (run, cls); assert alt is None or alt in classes, (run, alt)
    for i in inputs:
        assert os.path.exists(os.path.join(base, run, i)), (run, i)
    out.write(json.dumps({"run": run, "inputs": inputs, "class": cls, "initiating_rank": rank, "alt_class": alt, "notes": notes}) + "\n")
dirs = set(os.listdir(base))
print("missing labels:", sorted(dirs - seen), "labels w/o dir:", sorted(seen - dirs))
for run in sorted(dirs):
    extra = set(os.listdir(os.path.join(base, run))) - set(i.split('/')[0] for i in dict((r, i) for r, i, *_ in L)[run])
    if extra: print(run, "files not in inputs:", extra)
print(len(seen))
