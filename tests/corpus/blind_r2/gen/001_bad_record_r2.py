# Rank 2's data shard contains a malformed JSONL record; parsing it raises in the dataset.
import json, logging, os, sys, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

DATA = "/work/blind/r2/data/001"

class JsonlShard(torch.utils.data.Dataset):
    def __init__(self, path):
        with open(path) as f:
            self.lines = f.readlines()
    def __len__(self):
        return len(self.lines)
    def __getitem__(self, i):
        rec = json.loads(self.lines[i])
        x = torch.tensor(rec["features"], dtype=torch.float32)
        y = torch.tensor(rec["target"], dtype=torch.float32)
        return x, y

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO,
        format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s")
    log = logging.getLogger("train")
    torch.manual_seed(0)
    model = DDP(torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    shard = f"{DATA}/train-{rank:05d}-of-{world:05d}.jsonl"
    log.info("loading shard %s", shard)
    ds = JsonlShard(shard)
    dl = torch.utils.data.DataLoader(ds, batch_size=4, shuffle=False)
    log.info("shard has %d records, %d batches/epoch", len(ds), len(dl))
    step = 0
    for epoch in range(3):
        for x, y in dl:
            loss = torch.nn.functional.mse_loss(model(x).squeeze(-1), y)
            opt.zero_grad(); loss.backward(); opt.step()
            step += 1
            if step % 5 == 0:
                log.info("epoch %d step %d loss %.4f", epoch, step, loss.item())
            time.sleep(0.05)
    log.info("training done")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
