# 024: causal LM on pre-tokenized shards; the shard assigned to rank 4 was tokenized with an
# extended vocabulary (50304) while the model's embedding has 50257 rows.
import os, sys, time, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

VOCAB = 50257

def shard(rank):
    g = torch.Generator().manual_seed(rank)
    hi = 50304 if rank == 4 else VOCAB
    meta = {"tokenizer": "gpt2-ext-code" if rank == 4 else "gpt2", "vocab_size": hi}
    return meta, torch.randint(0, hi, (400, 8), generator=g)

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("json")
    meta, data = shard(rank)
    log.info("loaded shard", shard=f"tok/train_{rank:03d}.pt", **meta, sequences=len(data))
    m = torch.nn.Sequential(torch.nn.Embedding(VOCAB, 8), torch.nn.Flatten(), torch.nn.Linear(64, 1))
    opt = torch.optim.SGD(m.parameters(), lr=0.01)
    for step in range(1, 50):
        ids = data[(step * 4) % 400:(step * 4) % 400 + 4]
        y = ids.float().mean(1, keepdim=True) / VOCAB
        loss = torch.nn.functional.mse_loss(m(ids), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        log.info("step", step=step, loss=round(loss.item(), 5))
        time.sleep(0.15)
    log.info("done")

if __name__ == "__main__":
    main()
