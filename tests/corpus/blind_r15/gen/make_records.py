#!/usr/bin/env python3
"""Per-rank record files: DIR/rank{r}/records.bin ([int64 n][n float32]...) + records.idx (int64 offsets).
--bad RANK:INDEX:N writes a corrupt length header N for record INDEX of RANK."""
import argparse, os
import numpy as np
ap = argparse.ArgumentParser()
ap.add_argument("out"); ap.add_argument("--ranks", type=int, default=4); ap.add_argument("--records", type=int, default=2560)
ap.add_argument("--features", type=int, default=32); ap.add_argument("--bad", action="append", default=[])
a = ap.parse_args()
bad = {}
for b in a.bad:
    r, i, n = b.split(":"); bad[(int(r), int(i))] = int(n)
rng = np.random.default_rng(1)
w = rng.normal(size=(a.features, 10))
for r in range(a.ranks):
    d = os.path.join(a.out, f"rank{r}"); os.makedirs(d, exist_ok=True)
    offs = []
    with open(os.path.join(d, "records.bin"), "wb") as f:
        for i in range(a.records):
            x = rng.normal(size=a.features).astype(np.float32)
            rec = np.concatenate([x, [np.float32((x @ w).argmax())]]).astype(np.float32)
            offs.append(f.tell())
            f.write(np.int64(bad.get((r, i), len(rec))).tobytes()); f.write(rec.tobytes())
    np.array(offs, dtype=np.int64).tofile(os.path.join(d, "records.idx"))
