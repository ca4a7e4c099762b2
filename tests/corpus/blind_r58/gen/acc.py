"""Tiny accelerate run; BAD_RANK's dataset has a record whose token ids exceed the vocab -> IndexError in the embedding."""
import os, torch, torch.nn as nn
from accelerate import Accelerator
from torch.utils.data import DataLoader, Dataset

acc = Accelerator(cpu=True)
BAD = int(os.environ.get("BAD_RANK", "-1"))


class DS(Dataset):
    def __len__(self): return 64
    def __getitem__(self, i):
        ids = torch.randint(0, 100, (12,))
        if acc.process_index == BAD and i >= 40:
            ids[3] = 30522  # id from a different tokenizer
        return ids, torch.randint(0, 2, (1,)).squeeze()


model = nn.Sequential(nn.Embedding(100, 16), nn.Flatten(), nn.Linear(12 * 16, 2))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
dl = DataLoader(DS(), batch_size=8, shuffle=False)
model, opt, dl = acc.prepare(model, opt, dl)
for ep in range(2):
    for step, (x, y) in enumerate(dl):
        loss = nn.functional.cross_entropy(model(x), y)
        acc.backward(loss)
        opt.step(); opt.zero_grad()
        acc.print(f"epoch {ep} step {step} loss {loss.item():.4f}")
acc.print("done")
