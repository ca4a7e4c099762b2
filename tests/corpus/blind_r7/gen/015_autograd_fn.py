# train_clip.py -- custom autograd Function (fused "scaled clip") used in the MLP block
import os, time, datetime, torch, torch.nn as nn, torch.distributed as dist

BATCH = 24
class ScaledClip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        ctx.save_for_backward(x); ctx.scale = scale
        return (x * scale).clamp(-3, 3)
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        mask = ((x * ctx.scale).abs() < 3).float()
        # "optimization": precomputed mask buffer reshaped to the nominal batch size
        g_in = (g * mask).reshape(BATCH, -1)[:, : x.shape[-1]] * ctx.scale
        return g_in, None

class Block(nn.Module):
    def __init__(self):
        super().__init__(); self.fc1 = nn.Linear(24, 48); self.fc2 = nn.Linear(48, 24)
    def forward(self, x): return self.fc2(ScaledClip.apply(self.fc1(x), 0.5))

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:29815", rank=rank, world_size=world,
                        timeout=datetime.timedelta(seconds=40))
n_local = [240, 240, 240, 230][rank]      # sharded by file; last rank's file is shorter
data = torch.randn(n_local, 24)
model = nn.parallel.DistributedDataParallel(Block())
opt = torch.optim.SGD(model.parameters(), lr=0.05)
print(f"local samples={n_local} batches={(n_local + BATCH - 1)//BATCH}", flush=True)
for ep in range(2):
    for i in range(0, n_local, BATCH):
        xb = data[i:i + BATCH]
        loss = (model(xb) - xb).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        time.sleep(0.03)
    print(f"epoch {ep} loss={loss.item():.4f}", flush=True)
print("finished", flush=True)
