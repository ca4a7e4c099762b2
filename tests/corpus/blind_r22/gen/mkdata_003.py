import json, os, random, sys
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
for r in range(4):
    random.seed(r)
    with open(f"{d}/shard-{r:05d}.jsonl", "w") as f:
        for i in range(40):
            ids = [random.randrange(512) for _ in range(random.randrange(5, 20))]
            if r == 3 and i == 17: ids[4] = 50311   # record produced by a different (larger) tokenizer
            f.write(json.dumps({"ids": ids, "label": random.randrange(4)}) + "\n")
