import os, sys, logging, torch, torch.distributed as dist
from datetime import timedelta
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("trainer")
class Net(torch.nn.Module):
    def __init__(self, extra=False):
        super().__init__()
        self.encoder = torch.nn.Linear(16, 32)
        self.head = torch.nn.Linear(32, 4)
        if extra: self.adapter = torch.nn.Linear(32, 32)
    def forward(self, x): return self.head(torch.relu(self.encoder(x)))
CK = os.environ["CKPT_DIR"]
dist.init_process_group("gloo", timeout=timedelta(seconds=12))
rank = dist.get_rank()
if rank == 0 and not os.path.exists(os.path.join(CK, "shard_0.pt")):
    os.makedirs(CK, exist_ok=True)
    for r in range(dist.get_world_size()):
        # shard 2 was left behind by an older experiment with an adapter layer
        m = Net(extra=(r == 2))
        sd = m.state_dict()
        if r == 2: sd = {k.replace("head", "classifier"): v for k, v in sd.items()}
        torch.save({"model": sd, "step": 1200}, os.path.join(CK, f"shard_{r}.pt"))
dist.barrier()
model = Net()
path = os.path.join(CK, f"shard_{rank}.pt")
log.info("resuming from %s", path)
ck = torch.load(path)
model.load_state_dict(ck["model"])
log.info("resumed at step %d", ck["step"])
ddp = torch.nn.parallel.DistributedDataParallel(model)
opt = torch.optim.AdamW(ddp.parameters(), lr=1e-3)
for step in range(ck["step"], ck["step"] + 10):
    loss = ddp(torch.randn(8, 16)).pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    log.info("step %d loss %.4f", step, loss.item())
dist.destroy_process_group()
