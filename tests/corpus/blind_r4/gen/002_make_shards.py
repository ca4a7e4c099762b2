import os, sys, random
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
random.seed(3)
words = "the of and model data training a to in for is loss step token layer".split()
for r in range(3):
    with open(os.path.join(d, f"part-{r:05d}.txt"), "wb") as f:
        for i in range(400):
            line = " ".join(random.choice(words) for _ in range(12))
            if r == 1 and i == 233:
                # a row scraped from a cp1252 page and never re-encoded
                f.write("caf\xe9 na\xefve r\xe9sum\xe9 \u201cquoted\u201d ".encode("cp1252"))
            f.write(line.encode("utf-8") + b"\n")
