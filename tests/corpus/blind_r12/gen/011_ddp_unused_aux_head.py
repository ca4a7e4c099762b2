# detector-style multitask model: the box head only runs when the batch has box annotations
import os, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)-7s %(name)s | %(message)s")

class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(32, 64), nn.ReLU())
        self.cls = nn.Linear(64, 10)
        self.box = nn.Linear(64, 4)
    def forward(self, x, has_box):
        h = self.backbone(x)
        out = {"cls": self.cls(h)}
        if has_box.any():
            out["box"] = self.box(h[has_box])
        return out

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    rank, world = dist.get_rank(), dist.get_world_size()
    log = logging.getLogger(f"train[{rank}]")
    g = torch.Generator().manual_seed(rank)
    model = DDP(MultiTask())
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    for step in range(40):
        x = torch.randn(16, 32, generator=g); y = torch.randint(0, 10, (16,), generator=g)
        # rank 2's shard switches to the classification-only subset (no box labels) after 12 batches
        has_box = torch.rand(16, generator=g) < (0.5 if not (rank == 2 and step >= 12) else 0.0)
        out = model(x, has_box)
        loss = nn.functional.cross_entropy(out["cls"], y)
        if "box" in out:
            loss = loss + out["box"].abs().mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 4 == 0: log.info("step %d loss %.4f boxes %d", step, loss.item(), int(has_box.sum()))
        time.sleep(0.03)
    log.info("done")
    dist.destroy_process_group()

main()
