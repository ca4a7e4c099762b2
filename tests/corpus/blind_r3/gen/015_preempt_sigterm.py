# Healthy-looking training that is preempted: after ~12 s the .sh sends
# SIGTERM to the torchrun agent (what a scheduler / spot reclaim does).
# torchrun forwards it to the workers and exits with a SignalException.
# Workers have no handler of their own. Logging: bracketed step counter.
import os, time, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Conv1d(4, 8, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 32, 3)))
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 400):
        x = torch.randn(16, 4, 32, generator=g); y = torch.randint(0, 3, (16,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            print(f"[{step:>5}/399] rank{rank}/{world} loss={loss.item():.4f} tput={16*world/0.25:.0f} samples/s", flush=True)
        time.sleep(0.25)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
