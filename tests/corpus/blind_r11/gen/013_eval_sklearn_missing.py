# Binary classifier; rank 0 computes ROC-AUC on the validation set every 40 steps and broadcasts it
# (the LR scheduler and early-stopping logic on every rank consume it).
import os, sys, time, datetime
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
def say(msg):
    print(f"[{datetime.datetime.now():%Y-%m-%d %H:%M:%S}][rank{rank}] {msg}", flush=True)

@torch.no_grad()
def validate(model):
    from sklearn.metrics import roc_auc_score      # only needed for eval
    g = torch.Generator().manual_seed(5)
    x = torch.randn(2000, 40, generator=g); y = (x[:, :4].sum(1) > 0).long()
    p = torch.sigmoid(model(x).squeeze(-1))
    return float(roc_auc_score(y.numpy(), p.numpy()))

def main():
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    say(f"init done world={world} node={os.environ.get('SLURMD_NODENAME')}")
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", patience=2)
    for step in range(1, 121):
        x = torch.randn(64, 40); y = (x[:, :4].sum(1) > 0).float()
        loss = nn.functional.binary_cross_entropy_with_logits(model(x).squeeze(-1), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0: say(f"step {step} loss {loss.item():.4f}")
        if step % 40 == 0:
            auc = torch.zeros(1)
            if rank == 0:
                auc[0] = validate(model.module)
                say(f"val auc {auc.item():.4f}")
            dist.broadcast(auc, 0)
            sched.step(auc.item())
        time.sleep(0.08)
    say("training complete")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
