# Validation metric: per-class counts via torch.bincount(preds) WITHOUT minlength, then all_reduce.
# On rank 2 the highest class never appears in its validation shard -> a shorter tensor -> the
# ranks call all_reduce with different shapes (TORCH_DISTRIBUTED_DEBUG=DETAIL reports it).
import os, time
from datetime import timedelta
import torch, torch.distributed as dist

NUM_CLASSES = 10

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank = dist.get_rank()
    torch.manual_seed(rank)
    model = torch.nn.Linear(12, NUM_CLASSES)
    world = dist.get_world_size()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(2):
        for step in range(20):
            x = torch.randn(32, 12); y = torch.randint(0, NUM_CLASSES, (32,))
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad(); loss.backward()
            for p in model.parameters():          # manual data-parallel gradient averaging
                dist.all_reduce(p.grad); p.grad /= world
            opt.step()
        print(f"rank{rank}: epoch {epoch} train loss {loss.item():.4f}", flush=True)
        # --- validation ---
        labels = torch.randint(0, NUM_CLASSES, (64,))
        if rank == 2:
            labels = labels.clamp(max=NUM_CLASSES - 2)   # this shard has no samples of the last class
        counts = torch.bincount(labels)                  # BUG: no minlength=NUM_CLASSES
        print(f"rank{rank}: epoch {epoch} validation class histogram shape {tuple(counts.shape)}", flush=True)
        dist.all_reduce(counts)
        if rank == 0:
            print(f"epoch {epoch} global val histogram {counts.tolist()}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
