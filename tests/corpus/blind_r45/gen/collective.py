"""Manual data-parallel loop (no DDP): gradients averaged with all_reduce; eval gathers predictions.
A rank whose eval shard is shorter gathers a tensor of another size (a real shape bug)."""
import datetime, os, sys, time
import torch, torch.distributed as dist, torch.multiprocessing as mp


def run(rank, world, port):
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world, timeout=datetime.timedelta(seconds=30))
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(30):
        x = torch.randn(16, 8); y = x.sum(1, keepdim=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward()
        for p in model.parameters():
            dist.all_reduce(p.grad); p.grad /= world
        opt.step()
        if step % 10 == 0:
            print(f"rank={rank} step={step} loss={loss.item():.4f}", flush=True)
        time.sleep(0.05)
    n_eval = 50 if rank != world - 1 else 47  # last shard is short
    preds = torch.randn(n_eval)
    print(f"rank={rank} eval: gathering {n_eval} predictions", flush=True)
    gathered = [torch.empty(50) for _ in range(world)]
    dist.all_gather(gathered, preds)
    print(f"rank={rank} eval done", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    world = int(sys.argv[1]); port = int(sys.argv[2])
    mp.spawn(run, args=(world, port), nprocs=world)
