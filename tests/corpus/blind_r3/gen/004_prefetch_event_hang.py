# Each rank prefetches its next data shard in a background thread and waits on
# a threading.Event before using it. On rank 1 the prefetch thread for shard 102 polls for a
# ".done" marker that the (fake) staging job never writes, so the Event is never
# set and rank 1 blocks forever in ready.wait(). Ranks 0 and 2 enter the DDP
# gradient all-reduce and hit the 20 s gloo timeout.
import os, time, threading, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def ts(): return time.strftime("%H:%M:%S")

class ShardPrefetcher(threading.Thread):
    def __init__(self, rank, shard_id, root):
        super().__init__(daemon=True, name=f"prefetch-{shard_id}")
        self.rank, self.shard_id, self.root = rank, shard_id, root
        self.ready = threading.Event(); self.data = None
    def run(self):
        marker = os.path.join(self.root, f"shard-{self.shard_id:05d}.done")
        if not (self.rank == 1 and self.shard_id == 102):
            open(marker, "w").close()
        while not os.path.exists(marker):     # rank 1's shard 102 is never staged
            time.sleep(0.5)
        g = torch.Generator().manual_seed(self.shard_id)
        self.data = [torch.randn(16, 32, generator=g) for _ in range(6)]
        self.ready.set()

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank = dist.get_rank()
    root = f"/work/blind/r3/tmp/job004/stage/rank{rank}"; os.makedirs(root, exist_ok=True)
    for f in os.listdir(root): os.remove(os.path.join(root, f))
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    step = 0
    cur = ShardPrefetcher(rank, rank * 100, root); cur.start(); cur.ready.wait()
    for shard in range(1, 4):
        nxt = ShardPrefetcher(rank, rank * 100 + shard, root); nxt.start()
        for x in cur.data:
            loss = model(x).pow(2).mean()
            opt.zero_grad(); loss.backward(); opt.step()
            print(f"{ts()} step={step} shard={cur.shard_id} loss={loss.item():.5f}", flush=True)
            step += 1; time.sleep(0.2)
        print(f"{ts()} waiting for next shard {nxt.shard_id}", flush=True)
        nxt.ready.wait()
        cur = nxt
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
