# Seq2seq-style token classification with a masked mean loss; JSON-lines logs (one object per line).
import os, sys, json, time, random
from datetime import timedelta
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
def jlog(level, msg, **kw):
    rec = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + f".{int(time.time()*1000)%1000:03d}Z",
           "level": level, "rank": rank, "msg": msg, **kw}
    print(json.dumps(rec), flush=True)

IGNORE = -100
def batch(step, rnd):
    x = torch.randint(1, 300, (16, 24))
    y = torch.randint(0, 5, (16, 24))
    # labels exist only on answer spans; prompts are masked out
    span = torch.zeros_like(y, dtype=torch.bool)
    for i in range(16):
        s = rnd.randrange(0, 20); span[i, s:s + rnd.randrange(1, 5)] = True
    if rank == 1 and step == 23:
        span[:] = False        # every sample in this batch had its answer truncated away by max_len
    y[~span] = IGNORE
    return x, y

class Tagger(nn.Module):
    def __init__(self):
        super().__init__(); self.emb = nn.Embedding(300, 32); self.rnn = nn.GRU(32, 32, batch_first=True); self.head = nn.Linear(32, 5)
    def forward(self, x): return self.head(self.rnn(self.emb(x))[0])

def main():
    dist.init_process_group("gloo", init_method="env://", rank=rank, world_size=world, timeout=timedelta(seconds=20))
    jlog("INFO", "process group ready", world_size=world, host=os.uname().nodename, job=os.environ.get("SLURM_JOB_ID"))
    torch.manual_seed(0); rnd = random.Random(rank)
    model = DDP(Tagger()); opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(1, 61):
        x, y = batch(step, rnd)
        logits = model(x)
        mask = (y.reshape(-1) != IGNORE).float()
        tok = nn.functional.cross_entropy(logits.reshape(-1, 5), y.reshape(-1).clamp(min=0), reduction="none")
        loss = (tok * mask).sum() / mask.sum()
        if not torch.isfinite(loss):
            jlog("WARNING", "non-finite local loss", step=step, loss=loss.item(), target_tokens=int(mask.sum()))
        opt.zero_grad(); loss.backward()
        gn = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
        opt.step()
        if step % 5 == 0:
            jlog("INFO", "train", step=step, loss=round(loss.item(), 4), grad_norm=round(gn.item(), 4))
        time.sleep(0.1)
    jlog("INFO", "finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
