import json, random, sys
out, n, bad_line = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(out)
with open(out, "w") as f:
    for i in range(n):
        line = json.dumps({"id": i, "x": [round(random.gauss(0, 1), 4) for _ in range(32)]})
        if i == bad_line:
            line = line[: len(line) // 2]  # torn record
        f.write(line + "\n")
