import json, os, random, sys
d = sys.argv[1]; n = int(sys.argv[2]); per = int(sys.argv[3])
os.makedirs(d, exist_ok=True)
r = random.Random(7)
for s in range(n):
    with open(os.path.join(d, "train-%05d-of-%05d.jsonl" % (s, n)), "w") as f:
        for _ in range(per):
            ids = [r.randrange(512) for _ in range(16)]
            f.write(json.dumps({"ids": ids, "label": ids[0] % 16}) + "\n")
