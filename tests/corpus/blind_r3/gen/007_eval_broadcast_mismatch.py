# 3-rank pipeline-ish job: the last rank owns the validation head. After a
# refactor, the last rank shares its val loss with dist.broadcast(src=2) while
# ranks 0 and 1 still call dist.all_reduce on the same tensor. Run with
# TORCH_DISTRIBUTED_DEBUG=DETAIL, which checks collective fingerprints and
# reports the mismatch. (Gradients are averaged by hand: DDP under
# TORCH_DISTRIBUTED_DEBUG=DETAIL segfaults in this torch build.) The deviating code path is rank 2's.
import os, time, datetime, torch, torch.nn as nn, torch.distributed as dist

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    is_last = rank == world - 1
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 40), nn.Tanh(), nn.Linear(40, 5))
    for p in model.parameters(): dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 13):
        x = torch.randn(32, 20, generator=g); y = torch.randint(0, 5, (32,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        print(f"it {step:03d} | loss {loss.item():.4f}", flush=True)
        time.sleep(0.2)
        if step % 5 == 0:
            val = torch.tensor([loss.item() * 1.1])
            if is_last:
                dist.broadcast(val, src=rank)        # new code path (validation owner)
            else:
                dist.all_reduce(val)                 # old code path
            print(f"it {step:03d} | val_loss {val.item():.4f}", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
