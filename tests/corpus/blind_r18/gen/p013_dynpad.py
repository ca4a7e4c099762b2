import os, time
import torch
import torch.nn as nn
import trainlib as T

rank, world, local = T.env_rank()
log = T.make_logger(rank, "py")
T.init_pg()
torch.manual_seed(0)


class SeqNet(nn.Module):
    def __init__(self, vocab=256, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, 4)

    def forward(self, tok):
        return self.head(self.emb(tok).mean(1))


model = T.DDP(SeqNet())
opt = torch.optim.SGD(model.parameters(), lr=0.05)


def sample_lengths(step):
    g = torch.Generator().manual_seed(7919 * rank + step)
    lens = torch.randint(64, 512, (16,), generator=g).tolist()
    # rank 1's shard contains one unsplit document (a concatenated book dump) in its 3rd micro-batch of epoch 0
    if rank == 1 and step == 23:
        lens[5] = 48_000_000
    return lens


def collate_dynamic(lens):
    L = max(lens)
    tok = torch.zeros(len(lens), L, dtype=torch.long)  # pad to the longest sample in the batch
    for i, n in enumerate(lens):
        tok[i, :min(n, 512)] = torch.randint(0, 256, (min(n, 512),))
    return tok


log.info("dynamic padding collate, max_tokens unset")
for step in range(1, 41):
    lens = sample_lengths(step)
    tok = collate_dynamic(lens)
    y = torch.randint(0, 4, (len(lens),))
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(tok[:, :512]), y)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        log.info("step %d loss %.4f max_len %d", step, loss.item(), max(lens))
    time.sleep(0.1)
log.info("done")
T.dist.destroy_process_group()
