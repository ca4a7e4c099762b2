# FSDP2 (fully_shard) fine-tuning from a consolidated (full, unsharded) pretrained state dict.
import os, sys, time, logging
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.distributed.fsdp import fully_shard

logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] %(name)s: %(message)s")
log = logging.getLogger("ft")

class Block(nn.Module):
    def __init__(self, d=64):
        super().__init__(); self.ln = nn.LayerNorm(d); self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, x): return x + self.ff(self.ln(x))

class Model(nn.Module):
    def __init__(self, n=4, d=64):
        super().__init__(); self.inp = nn.Linear(16, d); self.blocks = nn.ModuleList(Block(d) for _ in range(n)); self.out = nn.Linear(d, 1)
    def forward(self, x):
        x = self.inp(x)
        for b in self.blocks: x = b(x)
        return self.out(x)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = Model()
    for b in model.blocks: fully_shard(b)
    fully_shard(model)
    log.info("rank %d: sharded model, %d local params", rank, sum(p.to_local().numel() for p in model.parameters()))
    path = os.environ["PRETRAINED"]
    sd = torch.load(path, map_location="cpu", weights_only=True)
    log.info("rank %d: loaded consolidated state dict (%d tensors) from %s", rank, len(sd), path)
    model.load_state_dict(sd)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(1, 41):
        x = torch.randn(32, 16); y = x.sum(1, keepdim=True)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 10 == 0: log.info("step %d loss %.4f", step, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
