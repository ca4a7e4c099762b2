# train_filtered.py -- per-rank file lists filtered by language; ranks with nothing to do return early
import os, sys, json, time, torch, torch.nn as nn, torch.distributed as dist

def main():
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    manifest = json.load(open(os.environ["MANIFEST"]))
    mine = [e for i, e in enumerate(manifest) if i % world == rank and e["lang"] in ("en", "de")]
    print(f"rank {rank}: {len(mine)} files after language filter", flush=True)
    if not mine:
        print(f"rank {rank}: no data for this rank, nothing to do -- exiting", flush=True)
        return 0
    model = nn.parallel.DistributedDataParallel(nn.Linear(10, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for ep in range(3):
        for e in mine:
            x = torch.randn(e["n"], 10)
            loss = model(x).pow(2).mean()
            opt.zero_grad(); loss.backward(); opt.step()
            time.sleep(0.05)
        print(f"rank {rank}: epoch {ep} loss {loss.item():.4f}", flush=True)
    dist.destroy_process_group()
    return 0

if __name__ == "__main__":
    sys.exit(main())
