import logging, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn

logging.basicConfig(level=logging.INFO)
log = logging.getLogger(__name__)
HIDDEN = int(os.environ.get("HIDDEN", "320"))

class Net(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.embed = nn.Embedding(500, h); self.mlp = nn.Sequential(nn.Linear(h, 4 * h), nn.GELU(), nn.Linear(4 * h, h))
        self.lm = nn.Linear(h, 500)
    def forward(self, t):
        return self.lm(self.mlp(self.embed(t)))

def main():
    if os.environ.get("MAKE_CKPT"):
        torch.save({"model": Net(HIDDEN).state_dict(), "step": 1200}, sys.argv[1]); return
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    rank = dist.get_rank()
    model = Net(HIDDEN)
    if rank == 0:
        log.info("resuming from %s (hidden=%d)", sys.argv[1], HIDDEN)
        ck = torch.load(sys.argv[1], map_location="cpu")
        model.load_state_dict(ck["model"])
        log.info("loaded step %d", ck["step"])
    for p in model.parameters():
        dist.broadcast(p.data, 0)
    ddp = nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.AdamW(ddp.parameters(), lr=1e-4)
    for step in range(20):
        t = torch.randint(0, 500, (4, 16))
        loss = nn.functional.cross_entropy(ddp(t).flatten(0, 1), t.flatten())
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0: log.info("step %d loss %.3f", step, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
