# Copies real run outputs from /tmp/r65s (work ids) into runs/NNN (final numbering) and writes labels.jsonl.
import os, shutil, json, tarfile, zipfile, glob
S = "/tmp/r65s"; R = "/work/blind/r65/runs"; OUT = "/work/blind/r65"
def files(d, names): return [(os.path.join(S, d, n), n) for n in names]
E = []  # (workid, packer, class, rank, alt, notes)
def add(w, pack, cls, rank, alt, notes): E.append((w, pack, cls, rank, alt, notes))

def copy(*names):
    def f(w, dst):
        out = []
        for n in names:
            for p in sorted(glob.glob(os.path.join(S, w, n))):
                b = os.path.basename(p); shutil.copy(p, os.path.join(dst, b)); out.append(b)
        return out
    return f
def targz(srcdir, name, extra=(), arcname=None):
    def f(w, dst):
        with tarfile.open(os.path.join(dst, name), "w:gz") as t:
            t.add(os.path.join(S, w, srcdir), arcname=arcname or srcdir)
        out = [name]
        for n in extra: shutil.copy(os.path.join(S, w, n), os.path.join(dst, n)); out.append(n)
        return out
    return f
def zipdir(srcdir, name, pattern=None):
    def f(w, dst):
        base = os.path.join(S, w)
        with zipfile.ZipFile(os.path.join(dst, name), "w", zipfile.ZIP_DEFLATED) as z:
            for root, _, fs in os.walk(os.path.join(base, srcdir)):
                for fn in sorted(fs):
                    p = os.path.join(root, fn)
                    if pattern and not glob.fnmatch.fnmatch(fn, pattern): continue
                    z.write(p, os.path.relpath(p, base))
        return [name]
    return f
def tail(src, n, name):
    def f(w, dst):
        lines = open(os.path.join(S, w, src), errors="replace").read().splitlines(True)
        open(os.path.join(dst, name), "w").write("".join(lines[-n:])); return [name]
    return f
def summary_only(src, name):
    # the launcher's ChildFailedError summary block only (from the '====' line before 'FAILED' to the end)
    def f(w, dst):
        lines = open(os.path.join(S, w, src), errors="replace").read().splitlines(True)
        i = max(k for k, l in enumerate(lines) if l.startswith("=====") and k + 1 < len(lines) and "FAILED" in lines[k + 1])
        open(os.path.join(dst, name), "w").write("".join(lines[i:])); return [name]
    return f
def copytree(srcdir):
    def f(w, dst):
        shutil.copytree(os.path.join(S, w, srcdir), os.path.join(dst, srcdir)); return [srcdir]
    return f

exec(open("/work/blind/r65/gen/labels_src.py").read())

if __name__ == "__main__":
    if os.path.isdir(R): shutil.rmtree(R)
    os.makedirs(R)
    rows = []
    for i, (w, pack, cls, rank, alt, notes) in enumerate(E, 1):
        nnn = f"{i:03d}"; dst = os.path.join(R, nnn); os.makedirs(dst)
        inputs = pack(w, dst)
        rows.append({"run": nnn, "inputs": inputs, "class": cls, "initiating_rank": rank, "alt_class": alt, "notes": notes + f" (work id {w})"})
    with open(os.path.join(OUT, "labels.jsonl"), "w") as fh:
        for r in rows: fh.write(json.dumps(r) + "\n")
    print(len(rows), "runs")
