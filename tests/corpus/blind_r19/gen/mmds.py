import mmap
import os
import numpy as np
import torch
from torch.utils.data import Dataset


class MMapDataset(Dataset):
    """float32 rows stored in a flat binary file, memory-mapped lazily per worker."""

    def __init__(self, path, dim):
        self.path, self.dim = path, dim
        self.n = os.path.getsize(path) // (4 * dim)
        self.mm = None

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.mm is None:
            f = open(self.path, "rb")
            self.mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        off = i * 4 * self.dim
        row = np.frombuffer(self.mm[off:off + 4 * self.dim], dtype=np.float32).copy()
        return torch.from_numpy(row)
