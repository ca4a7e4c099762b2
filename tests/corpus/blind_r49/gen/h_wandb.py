"""Training with an offline experiment tracker in the style of wandb/tensorboard (its usual chatter)."""
import os, sys, time, json
import torch, torch.distributed as dist, torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
sys.path.insert(0, os.path.dirname(__file__))
from common import init, MLP, make_data

class OfflineTracker:
    """Minimal offline tracker: writes metrics to a local run dir and prints wandb-like status lines."""
    def __init__(self, root, rank):
        self.rank = rank
        self.dir = os.path.join(root, f"offline-run-{time.strftime('%Y%m%d_%H%M%S')}-r{rank}")
        os.makedirs(self.dir, exist_ok=True)
        self.f = open(os.path.join(self.dir, "metrics.jsonl"), "w")
        if rank == 0:
            print("wandb: WARNING Network is not reachable / WANDB_MODE=offline: W&B syncing is set to `offline` in this directory.")
            print("wandb: Tracking run with wandb version 0.19.1 (offline)")
            print(f"wandb: Run data is saved locally in {self.dir}")
            print("wandb: Run `wandb online` or set WANDB_MODE=online to enable cloud syncing.")
            print(f"TensorBoard: writing event file {self.dir}/events.out.tfevents.{int(time.time())}.node0.{os.getpid()}.0")
        self.summary = {}
    def log(self, d, step):
        d = dict(d, _step=step); self.f.write(json.dumps(d) + "\n"); self.summary.update(d)
    def finish(self):
        self.f.close()
        if self.rank == 0:
            print("wandb: ")
            print("wandb: Run history:")
            print("wandb:   train/loss █▆▅▄▃▃▂▂▁▁")
            print("wandb:         lr ████▇▆▅▄▂▁")
            print("wandb: ")
            print("wandb: Run summary:")
            for k, v in self.summary.items():
                print(f"wandb: {k:>12} {v}")
            print("wandb: ")
            print(f"wandb: You can sync this run to the cloud by running:\nwandb: wandb sync {self.dir}")
            print("wandb: Find logs at: " + os.path.join(self.dir, "logs"))

root = sys.argv[1]
rank, world = init()
tr = OfflineTracker(root, rank)
model = DDP(MLP()); opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=100)
x, y = make_data(seed=11)
for step in range(100):
    i = (step * 32) % 448
    loss = F.cross_entropy(model(x[i:i + 32]), y[i:i + 32]); opt.zero_grad(); loss.backward(); opt.step(); sched.step()
    tr.log({"train/loss": round(loss.item(), 4), "lr": round(sched.get_last_lr()[0], 5)}, step)
    if step % 20 == 0 and rank == 0:
        print(f"step {step:4d} | loss {loss.item():.4f} | lr {sched.get_last_lr()[0]:.5f}", flush=True)
    if step == 50 and rank == 0:
        print("wandb: WARNING Step only supports monotonically increasing values, use define_metric to set a custom x axis. Skipping commit of out-of-order step 48.", flush=True)
tr.finish()
dist.barrier(); dist.destroy_process_group()
