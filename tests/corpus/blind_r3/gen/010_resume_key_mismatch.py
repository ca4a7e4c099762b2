# Resume after a model refactor: the checkpoint was written by the old model
# (blocks named "fc1"/"fc2", no norm); the new model uses "encoder.*" and
# adds a LayerNorm. Rank 0 loads the checkpoint (strict) before wrapping in
# DDP (DDP then broadcasts rank 0's weights); load_state_dict raises on rank 0,
# rank 1 is left waiting in DDP's initial broadcast. Plain print, no rank tag.
# `python resume.py --make-old` writes the old checkpoint (done by the .sh first).
import os, sys, time, datetime, torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

CKPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs", "last.pt")

class OldNet(nn.Module):
    def __init__(self):
        super().__init__(); self.fc1 = nn.Linear(24, 48); self.fc2 = nn.Linear(48, 4)
    def forward(self, x): return self.fc2(torch.relu(self.fc1(x)))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(24, 48), nn.LayerNorm(48), nn.ReLU())
        self.head = nn.Linear(48, 4)
    def forward(self, x): return self.head(self.encoder(x))

def worker(rank, world):
    os.environ["MASTER_ADDR"] = "127.0.0.1"; os.environ["MASTER_PORT"] = "29510"
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=20))
    model = Net()
    start = 0
    if rank == 0:
        print(f"resuming from {CKPT}", flush=True)
        ck = torch.load(CKPT, map_location="cpu")
        model.load_state_dict(ck["model"])
        start = ck["step"]
        print(f"resumed at step {start}", flush=True)
    model = DDP(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(start, start + 20):
        x = torch.randn(8, 24); loss = model(x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0: print(f"step {step} loss {loss.item():.4f}", flush=True)
        time.sleep(0.1)
    dist.destroy_process_group()

if __name__ == "__main__":
    if "--make-old" in sys.argv:
        os.makedirs(os.path.dirname(CKPT), exist_ok=True)
        torch.save({"model": OldNet().state_dict(), "step": 4200}, CKPT); sys.exit(0)
    print("launching 2 workers", flush=True)
    mp.spawn(worker, args=(2,), nprocs=2, join=True)
