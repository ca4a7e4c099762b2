# Streaming (IterableDataset) training on per-rank file shards of unequal
# length. Rank 1's shard has 9 batches, the others 20. When its iterator is
# exhausted, the user code on that rank logs "data exhausted" and calls
# sys.exit(0) (a cleanly exiting worker, exit code 0); ranks 0 and 2 keep
# calling the DDP all-reduce and lose their peer.
import os, sys, time, logging, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.utils.data import IterableDataset, DataLoader
from torch.nn.parallel import DistributedDataParallel as DDP

logging.basicConfig(level=logging.INFO, format="%(asctime)s.%(msecs)03d %(process)d %(levelname)s %(name)s - %(message)s",
                    datefmt="%H:%M:%S")
log = logging.getLogger("stream_train")

class ShardStream(IterableDataset):
    def __init__(self, rank):
        self.rank = rank
        self.n = 9 * 8 if rank == 1 else 20 * 8   # records in this rank's shard file
    def __iter__(self):
        g = torch.Generator().manual_seed(self.rank)
        for _ in range(self.n):
            x = torch.randn(12, generator=g); yield x, (x.sum() > 0).long()

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank = dist.get_rank()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(12, 24), nn.ReLU(), nn.Linear(24, 2)))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    dl = DataLoader(ShardStream(rank), batch_size=8)
    it = iter(dl); step = 0
    while True:
        try:
            x, y = next(it)
        except StopIteration:
            log.info("data exhausted after %d steps, nothing left to do on this worker", step)
            sys.exit(0)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        step += 1
        if step % 3 == 0: log.info("step=%d loss=%.4f", step, loss.item())
        time.sleep(0.2)

if __name__ == "__main__":
    main()
