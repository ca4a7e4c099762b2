# Causal LM pretraining on pre-tokenized jsonl shards (one shard per rank).
import os, json, logging, time, argparse
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import Dataset, DataLoader

p = argparse.ArgumentParser()
p.add_argument("--data", required=True)
p.add_argument("--steps", type=int, default=60)
p.add_argument("--bs", type=int, default=8)
p.add_argument("--seq", type=int, default=32)
args = p.parse_args()

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO,
    format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s")
log = logging.getLogger("pretrain")

class JsonlShard(Dataset):
    def __init__(self, path, seq):
        self.path, self.seq = path, seq
        self.offsets = []
        with open(path, "rb") as f:
            off = 0
            for line in f:
                self.offsets.append(off); off += len(line)
    def __len__(self): return len(self.offsets)
    def __getitem__(self, i):
        with open(self.path, "rb") as f:
            f.seek(self.offsets[i]); line = f.readline()
        rec = json.loads(line)
        ids = rec["input_ids"][: self.seq + 1]
        ids = ids + [0] * (self.seq + 1 - len(ids))
        t = torch.tensor(ids)
        return t[:-1], t[1:]

class TinyLM(nn.Module):
    def __init__(self, vocab=512, d=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d); self.ff = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.Linear(d, d))
        self.out = nn.Linear(d, vocab)
    def forward(self, x): return self.out(self.ff(self.emb(x)))

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=20))
    torch.manual_seed(0)
    shard = os.path.join(args.data, f"train-{rank:05d}-of-{world:05d}.jsonl")
    ds = JsonlShard(shard, args.seq)
    log.info("opened %s (%d records)", shard, len(ds))
    dl = DataLoader(ds, batch_size=args.bs, shuffle=False, num_workers=1)
    model = DDP(TinyLM())
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    lossf = nn.CrossEntropyLoss()
    step = 0; t0 = time.time()
    for x, y in dl:
        logits = model(x)
        loss = lossf(logits.view(-1, logits.size(-1)), y.view(-1))
        opt.zero_grad(); loss.backward(); opt.step()
        step += 1
        if step % 5 == 0:
            log.info("step %d loss %.4f tok/s %.0f", step, loss.item(), step * args.bs * args.seq / (time.time() - t0))
        time.sleep(0.1)
        if step >= args.steps: break
    log.info("training done, %d steps", step)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
