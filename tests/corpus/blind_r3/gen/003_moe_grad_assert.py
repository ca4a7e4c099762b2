# Two-expert MoE toy with a hand-written gradient all-reduce (no DDP).
# The hand-written sync asserts every parameter received a gradient. Rank 2's
# shard is all-positive after step 4, so its top-1 router never picks
# expert 1; expert 1's params get grad None and the assertion fires on rank 2.
import os, time, logging, datetime, torch, torch.nn as nn, torch.distributed as dist

logging.basicConfig(level=logging.INFO, format="%(asctime)s | %(levelname)-7s | %(name)s | %(message)s")
log = logging.getLogger("moe_train")

class MoE(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.experts = nn.ModuleList([nn.Linear(d, d), nn.Linear(d, d)])
        self.head = nn.Linear(d, 1)
    def forward(self, x):
        # deterministic "router": sign of the mean feature
        route = (x.mean(dim=1) < 0).long()
        out = torch.zeros_like(x)
        for e in range(2):
            m = route == e
            if m.any():
                out[m] = self.experts[e](x[m])
        return self.head(torch.relu(out))

def sync_grads(model, world):
    for name, p in model.named_parameters():
        assert p.grad is not None, f"parameter {name} has no gradient; expert routing dropped it"
        dist.all_reduce(p.grad); p.grad /= world

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = MoE()
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(100 + rank)
    if rank == 0: log.info("world_size=%d experts=2 steps=12", world)
    for step in range(12):
        x = torch.randn(8, 16, generator=g)
        if rank == 2 and step >= 4:
            x = x.abs() + 0.1     # this shard's later files are all-positive features
        y = x.sum(dim=1, keepdim=True)
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(set_to_none=True); loss.backward()
        sync_grads(model, world)
        opt.step()
        if rank == 0: log.info("step %d loss %.4f", step, loss.item())
        time.sleep(0.3)
    if rank == 0: log.info("done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
