"""Plain Accelerate loop over a CSV-backed dataset (CPU/gloo). Scenario from env SCN."""
import os, csv, time
import torch
from torch import nn
from torch.utils.data import Dataset, DataLoader
from accelerate import Accelerator
from accelerate.logging import get_logger
from accelerate.utils import InitProcessGroupKwargs, set_seed
from datetime import timedelta
import logging

SCN = os.environ.get("SCN", "ok")
logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", level=logging.INFO)
logger = get_logger("acc_train")


class CsvRows(Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.rows = list(csv.reader(f))[1:]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        vals = [float(v) for v in self.rows[i][:8]]
        return torch.tensor(vals), torch.tensor(float(self.rows[i][8]))


def make_csv(path, n, seed, bad_row=None):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = x.sum(1)
    with open(path, "w") as f:
        w = csv.writer(f)
        w.writerow([f"f{i}" for i in range(8)] + ["target"])
        for i in range(n):
            row = [f"{v:.5f}" for v in x[i].tolist()] + [f"{y[i]:.5f}"]
            if bad_row is not None and i == bad_row:
                row[3] = "N/A"
            w.writerow(row)


def main():
    acc = Accelerator(cpu=True, kwargs_handlers=[InitProcessGroupKwargs(backend="gloo", timeout=timedelta(seconds=30))])
    set_seed(5)
    d = os.environ.get("DATA_DIR", "/tmp/b44_acc_data")
    os.makedirs(d, exist_ok=True)
    shard = os.path.join(d, f"part-{acc.process_index:05d}.csv")
    make_csv(shard, 640, 100 + acc.process_index, bad_row=(333 if SCN == "bad_row" and acc.process_index == 1 else None))
    acc.wait_for_everyone()
    ds = CsvRows(shard)
    dl = DataLoader(ds, batch_size=16, shuffle=False)
    model = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model, opt = acc.prepare(model, opt)  # each process reads its own shard file
    logger.info(f"num_processes={acc.num_processes} samples_per_rank={len(ds)}", main_process_only=True)
    step = 0
    for epoch in range(2):
        for x, y in dl:
            loss = nn.functional.mse_loss(model(x).squeeze(-1), y)
            acc.backward(loss)
            opt.step(); opt.zero_grad()
            step += 1
            if step % 10 == 0:
                l = acc.gather(loss.detach()).mean().item()
                logger.info(f"epoch {epoch} step {step} loss {l:.4f}", main_process_only=True)
    acc.wait_for_everyone()
    logger.info("training finished", main_process_only=True)


if __name__ == "__main__":
    main()
