# streaming pretraining: each rank opens its next token shard from the shared filesystem every 40 steps.
# The mount that holds rank 1's next shard hangs (simulated with a FIFO nobody writes: open() blocks forever).
import os, sys, time, datetime
import torch, torch.distributed as dist

class Bar:   # minimal tqdm-style progress bar on stderr
    def __init__(self, total, desc): self.total, self.n, self.desc, self.t0 = total, 0, desc, time.time()
    def update(self, loss):
        self.n += 1
        el = time.time() - self.t0; rate = self.n / max(el, 1e-9); pct = 100 * self.n // self.total
        bar = "#" * (pct // 5) + " " * (20 - pct // 5)
        sys.stderr.write(f"\r{self.desc}: {pct:3d}%|{bar}| {self.n}/{self.total} [{el:05.1f}s, {rate:.2f}it/s, loss={loss:.3f}]")
        sys.stderr.flush()

def open_shard(root, idx, rank):
    path = os.path.join(root, f"shard-{idx:05d}.bin")
    print(f"\nrank {rank}: opening {path}", flush=True)
    with open(path, "rb") as f:
        data = f.read()
    return torch.frombuffer(bytearray(data), dtype=torch.int16).long() % 512

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rank = dist.get_rank()
    root = os.path.join(os.environ["SHARD_ROOT"], f"rank{rank}")
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(torch.nn.Sequential(torch.nn.Embedding(512, 32), torch.nn.Linear(32, 512)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    bar = Bar(200, f"train[r{rank}]")
    tokens = None
    for step in range(200):
        if step % 40 == 0:
            tokens = open_shard(root, step // 40, rank)
        i = (step % 40) * 64
        x, y = tokens[i:i + 63], tokens[i + 1:i + 64]
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        bar.update(loss.item())
        time.sleep(0.03)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
