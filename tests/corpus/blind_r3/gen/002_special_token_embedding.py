# Char-level LM. The tokenizer was extended with special tokens (<sep>, <img>)
# after the model config's vocab_size was frozen at 96; the <img> token gets
# id 97 > 95. Only documents of rank 2's shard contain "<img>", so rank 2's
# nn.Embedding raises IndexError ("index out of range in self").
# Launched with torch.multiprocessing.spawn, python logging with timestamps.
import os, sys, time, logging, datetime, torch, torch.nn as nn, torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP

WORLD = 3
BASE = [chr(c) for c in range(32, 127)]  # 95 printable chars
class CharTokenizer:
    def __init__(self):
        self.itos = ["<pad>"] + BASE          # 96 entries
        self.special = {"<sep>": 96, "<img>": 97}
        self.stoi = {c: i for i, c in enumerate(self.itos)}
    def encode(self, text):
        out, i = [], 0
        while i < len(text):
            for s, sid in self.special.items():
                if text.startswith(s, i):
                    out.append(sid); i += len(s); break
            else:
                out.append(self.stoi.get(text[i], 0)); i += 1
        return out

def shard_docs(rank, n=60):
    docs = []
    for k in range(n):
        d = f"doc {rank}-{k}: the quick brown fox jumps over the lazy dog <sep> number {k*7%13}"
        if rank == 2 and k == 9:
            d = "caption: <img> a cat sitting on a mat <sep> alt text"
        docs.append(d)
    return docs

class TinyLM(nn.Module):
    def __init__(self, vocab=96, d=48):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, vocab)
    def forward(self, x):
        h, _ = self.rnn(self.emb(x)); return self.out(h)

def worker(rank):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1"); os.environ.setdefault("MASTER_PORT", "29502")
    logging.basicConfig(level=logging.INFO, stream=sys.stdout,
        format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s")
    log = logging.getLogger("lm")
    dist.init_process_group("gloo", rank=rank, world_size=WORLD, timeout=datetime.timedelta(seconds=20))
    torch.manual_seed(0)
    tok = CharTokenizer()
    model = DDP(TinyLM())
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    docs = shard_docs(rank)
    log.info("loaded %d docs, vocab_size=%d (tokenizer has %d ids)", len(docs), 96, len(tok.itos) + len(tok.special))
    for step in range(0, len(docs), 2):
        batch = [tok.encode(d)[:40] for d in docs[step:step+2]]
        L = min(len(b) for b in batch)
        x = torch.tensor([b[:L] for b in batch])
        logits = model(x[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, 96), x[:, 1:].reshape(-1))
        opt.zero_grad(); loss.backward(); opt.step()
        log.info("step %d loss %.4f", step // 2, loss.item())
        time.sleep(0.2)
    dist.destroy_process_group()

if __name__ == "__main__":
    mp.spawn(worker, nprocs=WORLD, join=True)
