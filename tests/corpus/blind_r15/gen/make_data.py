#!/usr/bin/env python3
"""Generate per-rank data shards: DIR/rank{r}/chunk_{k:03d}.npy (rows x (F+1), last col = label)."""
import argparse, os
import numpy as np

def make(out, ranks=4, chunks=3, rows=640, features=32, classes=10, fmt="npy", seed=0):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=(features, classes))
    for r in range(ranks):
        d = os.path.join(out, f"rank{r}")
        os.makedirs(d, exist_ok=True)
        for k in range(chunks):
            x = rng.normal(size=(rows, features)).astype(np.float32)
            y = (x @ w).argmax(1).astype(np.float32)
            arr = np.concatenate([x, y[:, None]], axis=1)
            p = os.path.join(d, f"chunk_{k:03d}.{fmt}")
            if fmt == "npy":
                np.save(p, arr)
            else:
                arr.astype(np.float32).tofile(p)

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("out"); ap.add_argument("--ranks", type=int, default=4)
    ap.add_argument("--chunks", type=int, default=3); ap.add_argument("--rows", type=int, default=640)
    ap.add_argument("--features", type=int, default=32); ap.add_argument("--fmt", default="npy")
    a = ap.parse_args()
    make(a.out, a.ranks, a.chunks, a.rows, a.features, fmt=a.fmt)
