# LM fine-tune with periodic eval. Eval metrics are split across ranks: rank 0
# computes perplexity, rank 1 builds a token-level confusion matrix of shape
# (vocab, vocab) with numpy. With the new 131072-token vocab that is 64 GiB of
# float32 on a 24 GB host, so numpy raises MemoryError on rank 1.
# JSON-lines structured logging to stdout.
import os, sys, json, time, datetime, numpy as np, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

VOCAB = 131072
def jlog(**kw):
    kw = {"ts": round(time.time(), 3), **kw}
    sys.stdout.write(json.dumps(kw) + "\n"); sys.stdout.flush()

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Embedding(2048, 32), nn.Flatten(), nn.Linear(32 * 8, 2048)))
    opt = torch.optim.AdamW(model.parameters(), lr=5e-4)
    jlog(level="info", rank=rank, event="start", world_size=world, vocab_size=VOCAB, eval_every=8)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 25):
        x = torch.randint(0, 2048, (16, 8), generator=g); y = torch.randint(0, 2048, (16,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        jlog(level="info", rank=rank, event="train_step", step=step, loss=round(loss.item(), 4), lr=5e-4)
        time.sleep(0.2)
        if step % 8 == 0:
            jlog(level="info", rank=rank, event="eval_begin", step=step)
            with torch.no_grad():
                preds = model(x).argmax(-1).numpy()
            if rank == 0:
                metric = {"ppl": float(torch.exp(loss).item())}
            else:
                cm = np.zeros((VOCAB, VOCAB), dtype=np.float32)
                np.add.at(cm, (y.numpy(), preds), 1)
                metric = {"token_acc": float(np.trace(cm) / cm.sum())}
            t = torch.tensor([1.0]); dist.all_reduce(t)
            jlog(level="info", rank=rank, event="eval_end", step=step, **metric)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
