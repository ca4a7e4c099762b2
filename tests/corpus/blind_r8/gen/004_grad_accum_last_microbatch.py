# Gradient accumulation with a hard-coded micro-batch size in a reshape. Data is sharded
# contiguously: 255 samples over 4 ranks -> ranks 0,2,3 get 64, rank 1 gets 63. Batch 8 split
# into 4 micro-batches of 2; rank 1's last batch has 7 samples, its last micro-batch has 1 ->
# logits.view(MB, SEQ, V) fails only there, at the end of epoch 1.
import json, os, sys, time
import torch, torch.nn as nn, torch.distributed as dist
from torch.distributed.elastic.multiprocessing.errors import record

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
MB, ACC, SEQ, V = 2, 4, 16, 50

def jlog(level, msg, **kw):
    print(json.dumps({"ts": time.strftime("%Y-%m-%dT%H:%M:%S") + f".{int(time.time()*1000)%1000:03d}Z",
                      "level": level, "rank": rank, "msg": msg, **kw}), flush=True)

class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.e = nn.Embedding(V, 32); self.rnn = nn.GRU(32, 32, batch_first=True); self.o = nn.Linear(32, V)
    def forward(self, x):
        return self.o(self.rnn(self.e(x))[0])

@record
def main():
    dist.init_process_group("gloo")
    torch.manual_seed(1)
    data = torch.randint(0, V, (255, SEQ + 1))
    bounds = [0, 64, 127, 191, 255]
    shard = data[bounds[rank]:bounds[rank + 1]]
    jlog("info", "data shard assigned", n_samples=len(shard), start=bounds[rank])
    model = nn.parallel.DistributedDataParallel(Tiny())
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    step = 0
    for epoch in range(2):
        for b in range(0, len(shard), MB * ACC):
            batch = shard[b:b + MB * ACC]
            opt.zero_grad()
            tot = 0.0
            for i in range(ACC):
                mb = batch[i * MB:(i + 1) * MB]
                ctx = model.no_sync() if i < ACC - 1 else torch.enable_grad()
                with ctx:
                    logits = model(mb[:, :-1]).reshape(-1).view(MB, SEQ, V)
                    loss = nn.functional.cross_entropy(logits.transpose(1, 2), mb[:, 1:]) / ACC
                    loss.backward(); tot += loss.item()
            opt.step(); step += 1
            if step % 2 == 0:
                jlog("info", "train", epoch=epoch, step=step, loss=round(tot, 4), samples_seen=b + len(batch))
            time.sleep(0.1)
        jlog("info", "epoch finished", epoch=epoch)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
