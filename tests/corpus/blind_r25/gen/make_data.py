"""Write synthetic token shards (+manifest) for tinylm. Optionally damage one shard the way
production preprocessing damages shards.

  make_data.py OUT --shards 4 --samples 256 [--format npz|jsonl|rec] [--damage IDX:KIND ...]
KINDS: truncate, empty, float_tokens, schema_text, inf_weight, no_eos, bad_record, ragged, seqlen128
"""
import argparse
import json
import os
import struct

import numpy as np

EOS = 2


def sample_docs(rng, n, seq_len, vocab, with_eos=True, easy=False):
    T = seq_len + 1
    if easy:  # arithmetic progressions with a small step and 2% noise: learnable in a few hundred steps
        out = np.empty((n, T), dtype=np.int64)
        for i in range(n):
            a, t = rng.integers(1, 4), rng.integers(3, vocab)
            for k in range(T):
                out[i, k] = t if rng.random() > 0.02 else rng.integers(3, vocab)
                t = 3 + (t - 3 + a) % (vocab - 3)
        return out
    out = np.empty((n, T), dtype=np.int64)
    for i in range(n):
        a, b = rng.integers(1, 7), rng.integers(0, vocab)
        t = rng.integers(3, vocab)
        row = []
        while len(row) < T:
            doclen = rng.integers(12, 40)
            for _ in range(doclen):
                row.append(t)
                t = (a * t + b + (rng.random() < 0.1) * rng.integers(0, vocab)) % vocab
                if t < 3:
                    t += 3
            if with_eos:
                row.append(EOS)
        out[i] = row[:T]
    if not with_eos:
        out[out == EOS] = 3
    return out


def write_shard(out, fmt, name, tokens, weights, damage=None):
    path = os.path.join(out, name)
    if fmt == "npz":
        if damage == "float_tokens":
            tokens = tokens.astype(np.float64)
        np.savez(path, tokens=tokens if damage != "empty" else tokens[:0], weights=weights)
        if damage == "truncate":
            size = os.path.getsize(path)
            with open(path, "r+b") as f:
                f.truncate(int(size * 0.6))
    elif fmt == "jsonl":
        with open(path, "w") as f:
            for i, (t, w) in enumerate(zip(tokens, weights)):
                t = t.tolist()
                if damage == "ragged" and i == len(tokens) // 2:
                    t = t[:-7]
                if damage == "bad_json" and i == len(tokens) // 3:
                    line = json.dumps({"input_ids": t, "weight": float(w)})
                    f.write(line[:len(line) * 6 // 10] + "\n")
                    continue
                if damage == "schema_text":
                    rec = {"text": " ".join(f"tok{x}" for x in t), "weight": float(w)}
                else:
                    rec = {"input_ids": t, "weight": float(w)}
                f.write(json.dumps(rec) + "\n")
    elif fmt == "rec":
        n = len(tokens)
        header = 8 + 8 * n
        offs, blob = [], b""
        for t in tokens:
            offs.append(header + len(blob))
            blob += t.astype("<u2").tobytes()
        idx = b"".join(struct.pack("<II", len(t), o) for t, o in zip(tokens, offs))
        if damage == "bad_record":
            k = n // 3
            # an index entry overwritten by a bad merge: offset points far outside the file
            idx = idx[:8 * k] + struct.pack("<II", len(tokens[k]), 0x7FFF0000) + idx[8 * (k + 1):]
        with open(path, "wb") as f:
            f.write(b"TLMR" + struct.pack("<I", n) + idx + blob)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--shards", type=int, default=4)
    ap.add_argument("--samples", type=int, default=256)
    ap.add_argument("--seq-len", type=int, default=64)
    ap.add_argument("--vocab", type=int, default=512)
    ap.add_argument("--format", default="npz")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--damage", action="append", default=[])
    ap.add_argument("--easy", action="store_true")
    args = ap.parse_args()
    damage = {int(d.split(":")[0]): d.split(":")[1] for d in args.damage}
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    ext = {"npz": "npz", "jsonl": "jsonl", "rec": "rec"}[args.format]
    shards = []
    for i in range(args.shards):
        dmg = damage.get(i)
        seq = 128 if dmg == "seqlen128" else args.seq_len
        toks = sample_docs(rng, args.samples, seq, args.vocab, with_eos=(dmg != "no_eos"), easy=args.easy)
        w = rng.uniform(0.5, 1.5, size=args.samples).astype(np.float32)
        if dmg == "inf_weight":
            # quality score divided by a zero length-normaliser for a few empty documents
            w[rng.integers(args.samples)] = np.inf
        name = f"train-{i:05d}-of-{args.shards:05d}.{ext}"
        write_shard(args.out, args.format, name, toks, w, dmg)
        shards.append({"file": name, "num_samples": 0 if dmg == "empty" else args.samples})
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump({"format": args.format, "seq_len": args.seq_len, "vocab": args.vocab, "shards": shards}, f, indent=1)


if __name__ == "__main__":
    main()
