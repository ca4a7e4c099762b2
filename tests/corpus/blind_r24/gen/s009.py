# 009: packing sampler with rejection sampling; rank 4's shard has no document short enough after
# its short docs run out, so its sampler spins forever (100% CPU); peers time out in all_reduce.
import os, sys, time, random, torch
sys.path.insert(0, os.path.dirname(__file__))
import lib
from torch.distributed.elastic.multiprocessing.errors import record

MAX_LEN = 512

def doc_lengths(rank):
    rnd = random.Random(rank)
    if rank == 4:   # shard 4: 60 short docs, then only very long ones (a book dump)
        return [rnd.randint(100, 500) for _ in range(60)] + [rnd.randint(4000, 90000) for _ in range(5000)]
    return [rnd.randint(100, 2000) for _ in range(5000)]

def packed_batches(rank):
    docs = doc_lengths(rank); used = set(); rnd = random.Random(1000 + rank)
    while True:
        batch = []
        for _ in range(4):
            while True:                             # rejection sampling: draw until an unused doc fits
                i = rnd.randrange(len(docs))
                if i not in used and docs[i] <= MAX_LEN:
                    used.add(i); batch.append(docs[i]); break
        yield batch

@record
def main():
    rank, world = lib.init(timeout=30)
    log = lib.Log("json")
    log.info("start", world=world, max_len=MAX_LEN)
    m = lib.model(); opt = torch.optim.SGD(m.parameters(), lr=0.02)
    it = packed_batches(rank)
    for step in range(1, 61):
        t0 = time.time()
        lens = next(it)
        x, y = lib.batch(step, rank)
        loss = torch.nn.functional.mse_loss(m(x), y)
        opt.zero_grad(); loss.backward(); lib.allreduce_grads(m); opt.step()
        time.sleep(0.2)
        log.info("step", step=step, loss=round(loss.item(), 4), tokens=sum(lens), dt=round(time.time() - t0, 3))
    log.info("done")

if __name__ == "__main__":
    main()
