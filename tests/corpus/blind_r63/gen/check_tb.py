# Check that traceback source lines quoted in the logs match the gen/ scripts (detects runs that raced an edit).
import re, sys, os, glob, tarfile
S = "/work/blind/r63"
pat = re.compile(r'File "(/work/blind/r63/gen/[^"]+)", line (\d+)')
for run in sorted(os.listdir(f"{S}/runs")):
    bad = 0
    for f in glob.glob(f"{S}/runs/{run}/**/*", recursive=True):
        if not os.path.isfile(f) or f.endswith((".gz", ".zip", ".json")): continue
        lines = open(f, errors="replace").read().splitlines()
        for i, l in enumerate(lines[:-1]):
            m = pat.search(l)
            if not m: continue
            src = open(m.group(1)).read().splitlines()
            want = src[int(m.group(2)) - 1].strip()
            nxt = lines[i + 1]
            if want and want not in nxt:
                bad += 1
                if bad < 3: print(run, os.path.basename(f), m.group(2), repr(want[:50]), "|", nxt.strip()[:60])
    if bad: print(run, "MISMATCHES", bad)
