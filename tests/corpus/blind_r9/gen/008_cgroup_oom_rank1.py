# image-regression training; the dataset memoizes decoded samples in RAM. The memo is per process and
# unbounded; rank 1's shard is the one with the high-resolution images, so only its cache grows fast.
import os, time, datetime
import torch, torch.distributed as dist

class DecodedCache:
    def __init__(self): self.store = {}
    def get(self, key, res):
        if key not in self.store:
            self.store[key] = torch.rand(3, res, res)        # "decoded" image kept forever
        return self.store[key]

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    res = 1280 if rank == 1 else 224
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 512)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    cache = DecodedCache()
    t0 = time.time()
    for step in range(300):
        img = cache.get((rank, step), res)
        x = torch.nn.functional.adaptive_avg_pool2d(img, (16, 32)).reshape(-1)[:512].repeat(64, 1)
        out = model(x)
        loss = (out - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            print(f"step {step} rank {rank} loss {loss.item():.5f} elapsed {time.time()-t0:.1f}s", flush=True)
        time.sleep(0.05)
    dist.destroy_process_group()
if __name__ == "__main__":
    main()
