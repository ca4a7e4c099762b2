# audio-feature regression; features are stored/packed as float16 by the loader to halve host->device traffic.
# The shard of rank 1 contains un-normalised energy features (raw values up to ~1e5).
import os, sys, time, math, datetime
import numpy as np
import torch, torch.distributed as dist

def load_batch(rng, rank, step):
    feats = rng.normal(0, 1, (32, 40)).astype(np.float32)
    if rank == 1 and step == 57:
        feats[3] *= 9.0e4                  # a clip whose features were never normalised
    return torch.from_numpy(feats.astype(np.float16))     # packing cast

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank, ws = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(40, 128), torch.nn.GELU(), torch.nn.Linear(128, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    rng = np.random.default_rng(rank)
    running = torch.zeros(1)
    for step in range(1, 301):
        x = load_batch(rng, rank, step).float()
        y = x[:, :4].sum(1, keepdim=True)
        loss = torch.nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        running += loss.detach()
        if step % 10 == 0:
            dist.all_reduce(running); running /= (10 * ws)
            if rank == 0:
                print(f"step {step:5d} | avg loss {running.item():.5f}", flush=True)
            if not math.isfinite(running.item()):
                raise FloatingPointError(f"[rank {rank}] non-finite average loss {running.item()} at step {step}; aborting")
            running.zero_()
        time.sleep(0.02)
    dist.destroy_process_group()
    if rank == 0: print("training finished", flush=True)

if __name__ == "__main__":
    main()
