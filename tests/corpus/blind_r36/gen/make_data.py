"""Writes per-rank data parts for train.py: make_data.py OUTDIR JSON-SPEC"""
import json, os, sys
import numpy as np

out, spec = sys.argv[1], json.loads(sys.argv[2])
world, parts, rows, dim = spec.get("world", 2), spec.get("parts", 2), spec.get("rows", 320), spec.get("dim", 16)
rng = np.random.default_rng(0)
w_true = rng.normal(size=dim).astype(np.float32)
for r in range(world):
    o = spec.get("overrides", {}).get(str(r), {})
    d = os.path.join(out, f"{r:03d}")
    os.makedirs(d, exist_ok=True)
    fmt = o.get("format", spec.get("format", "npy"))
    np_ = o.get("parts", parts)
    for k in range(np_):
        n = o.get("rows", rows)
        dd = o.get("dim", dim)
        x = rng.normal(size=(n, dd)).astype(np.float32) * spec.get("scale", 1.0)
        y = (x[:, :dim] @ w_true[: min(dd, dim)] if dd >= dim else x @ w_true[:dd]) + 0.1 * rng.normal(size=n)
        arr = np.concatenate([x, y[:, None].astype(np.float32)], axis=1)
        if o.get("dtype"):
            arr = arr.astype(o["dtype"])
        if o.get("inf_at") and o["inf_at"][0] == k:
            arr[o["inf_at"][1], 3] = np.inf
        p = os.path.join(d, f"part-{k:05d}.{ 'csv' if fmt == 'csv' else 'npy'}")
        if k in o.get("missing", []):
            # staged by symlink from the shared dataset store; the target is gone
            os.symlink(f"/mnt/datasets/regress-v2/{r:03d}/part-{k:05d}.npy", p)
            continue
        if k in o.get("fifo", []):
            os.mkfifo(p)
            continue
        if k in o.get("huge", []):
            n_big = o["huge_rows"]
            with open(p, "wb") as f:
                np.lib.format.write_array_header_1_0(f, {"descr": "<f4", "fortran_order": False, "shape": (n_big, dim + 1)})
                f.truncate(f.tell() + n_big * (dim + 1) * 4)  # sparse: zeros
            continue
        if fmt == "csv":
            with open(p, "wb") as f:
                for i, row in enumerate(arr):
                    line = ",".join(f"{v:.5f}" for v in row).encode()
                    if o.get("bad_bytes_at") == [k, i]:
                        line = line[:10] + b"\xff\xfe" + line[10:]
                    f.write(line + b"\n")
        else:
            np.save(p, arr)
    if fmt == "native":
        # blob + index (offset, nbytes) per record
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
        x = rng.normal(size=(rows, dim)).astype(np.float32)
        y = x @ w_true
        arr = np.concatenate([x, y[:, None]], axis=1).astype(np.float32)
        open(os.path.join(d, "a-records.bin"), "wb").write(arr.tobytes())
        rec = (dim + 1) * 4
        with open(os.path.join(d, "b-records.idx"), "w") as f:
            for i in range(rows):
                off = i * rec
                if o.get("bad_index_at") == i:
                    off = 1 << 40
                f.write(f"{off} {rec}\n")
print("data written to", out)
