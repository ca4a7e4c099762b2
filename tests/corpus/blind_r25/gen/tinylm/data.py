"""Sharded token datasets.

Shards live in a directory with a manifest.json:
  {"format": "npz"|"jsonl"|"rec", "seq_len": 64, "shards": [{"file": ..., "num_samples": N}, ...]}
Each rank reads shards[rank::world_size].
"""
import ctypes
import json
import logging
import mmap
import os
import struct

import numpy as np
import torch
from torch.utils.data import Dataset

log = logging.getLogger("tinylm.data")


def load_manifest(data_dir):
    with open(os.path.join(data_dir, "manifest.json")) as f:
        return json.load(f)


class NpzShards(Dataset):
    def __init__(self, data_dir, shards):
        self.files = [os.path.join(data_dir, s["file"]) for s in shards]
        self.index = []
        for fi, s in enumerate(shards):
            self.index.extend((fi, j) for j in range(s["num_samples"]))
        self._cache = {}

    def __len__(self):
        return len(self.index)

    def _shard(self, fi):
        if fi not in self._cache:
            with np.load(self.files[fi]) as z:
                self._cache[fi] = (z["tokens"], z["weights"])
        return self._cache[fi]

    def __getitem__(self, i):
        fi, j = self.index[i]
        tokens, weights = self._shard(fi)
        return {"input_ids": torch.from_numpy(np.asarray(tokens[j])),
                "weight": torch.tensor(float(weights[j]))}


class JsonlShards(Dataset):
    def __init__(self, data_dir, shards):
        self.lines = []
        for s in shards:
            with open(os.path.join(data_dir, s["file"])) as f:
                self.lines.extend(f.readlines())

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        rec = json.loads(self.lines[i])
        ids = rec["input_ids"]
        return {"input_ids": torch.tensor(ids, dtype=torch.long),
                "weight": torch.tensor(float(rec.get("weight", 1.0)))}


_REC_MAGIC = b"TLMR"


class RecShards(Dataset):
    """Packed binary records: magic, u32 count, then (u32 ntok, u32 offset) index, then u16 tokens.
    Decoding uses a zero-copy native path into the mmap."""

    def __init__(self, data_dir, shards):
        self.paths = [os.path.join(data_dir, s["file"]) for s in shards]
        self.index = []
        for fi, s in enumerate(shards):
            self.index.extend((fi, j) for j in range(s["num_samples"]))
        self._maps = {}

    def __len__(self):
        return len(self.index)

    def _map(self, fi):
        if fi not in self._maps:
            f = open(self.paths[fi], "rb")
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
            assert mm[:4] == _REC_MAGIC, f"bad magic in {self.paths[fi]}"
            self._maps[fi] = (f, mm, ctypes.addressof(ctypes.c_char.from_buffer(mm)))
        return self._maps[fi]

    def __getitem__(self, i):
        fi, j = self.index[i]
        f, mm, addr = self._map(fi)
        ntok, off = struct.unpack_from("<II", mm, 8 + 8 * j)
        # fast path: read tokens straight out of the page cache
        arr = (ctypes.c_uint16 * ntok).from_address(addr + off)
        toks = np.frombuffer(arr, dtype=np.uint16).astype(np.int64)
        return {"input_ids": torch.from_numpy(toks), "weight": torch.tensor(1.0)}


class SkipBadSamples(Dataset):
    """Returns the next readable sample when one cannot be decoded (logged, not fatal)."""

    def __init__(self, ds, max_skips=16):
        self.ds = ds
        self.max_skips = max_skips

    def __len__(self):
        return len(self.ds)

    def __getitem__(self, i):
        for k in range(self.max_skips):
            j = (i + k) % len(self.ds)
            try:
                return self.ds[j]
            except (ValueError, KeyError, OSError):
                log.warning("skipping unreadable sample %d of %s", j, type(self.ds).__name__, exc_info=True)
        raise RuntimeError(f"{self.max_skips} unreadable samples in a row starting at {i}")


FORMATS = {"npz": NpzShards, "jsonl": JsonlShards, "rec": RecShards}


def build_dataset(data_dir, rank, world_size, skip_bad=False):
    man = load_manifest(data_dir)
    shards = man["shards"][rank::world_size]
    ds = FORMATS[man["format"]](data_dir, shards)
    if skip_bad:
        ds = SkipBadSamples(ds)
    log.info("data: %d shard(s) from %s -> %d samples (format=%s, seq_len=%d)",
             len(shards), data_dir, len(ds), man["format"], man["seq_len"])
    return ds
