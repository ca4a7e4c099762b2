# Pre-tokenized shards, one file per (epoch, rank). The epoch-1 shard for rank 3 was never
# uploaded, so rank 3 hits FileNotFoundError when epoch 1 starts.
import logging, os, time
from datetime import timedelta
import torch, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

DATA = "/work/blind/r2/data/014/tokenized"

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO,
        format="%(asctime)s | %(levelname)s | %(name)s | %(message)s")
    log = logging.getLogger(f"lm.rank{rank}")
    emb = torch.nn.Embedding(100, 32)
    model = DDP(torch.nn.Sequential(emb, torch.nn.Linear(32, 100)))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(3):
        path = f"{DATA}/epoch{epoch}/tokens-{rank:05d}-of-{world:05d}.pt"
        log.info("loading %s", path)
        tokens = torch.load(path)
        for i in range(0, len(tokens) - 17, 16):
            seq = tokens[i:i + 17]
            logits = model(seq[:-1])
            loss = torch.nn.functional.cross_entropy(logits, seq[1:])
            opt.zero_grad(); loss.backward(); opt.step()
        log.info("epoch %d done, last loss %.4f", epoch, loss.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
