# 4 ranks, torchrun --log-dir --tee 3. A token-budget packing sampler keeps drawing documents
# until one fits the remaining budget. From step ~15 rank 2's shard (a long-document split)
# only has documents longer than any remaining budget -> `while True` never exits: rank 2 spins
# at 100% CPU, prints nothing. Ranks 0,1,3 block in the gradient all_reduce until the 30 s
# gloo timeout.
import datetime, logging, os, random, sys, time
import torch, torch.nn as nn, torch.distributed as dist

rank = int(os.environ["RANK"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s.%(msecs)03d %(levelname)s %(message)s", datefmt="%H:%M:%S")
log = logging.getLogger()

class PackingSampler:
    def __init__(self, lengths, budget, seed):
        self.lengths, self.budget, self.rng = lengths, budget, random.Random(seed)
    def next_batch(self):
        batch, used = [], 0
        while used < self.budget * 0.9:
            i = self.rng.randrange(len(self.lengths))
            if used + self.lengths[i] <= self.budget:
                batch.append(i); used += self.lengths[i]
        return batch

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=30))
    rng = random.Random(rank)
    if rank == 2:
        lengths = [rng.randint(50, 400) for _ in range(300)] + [rng.randint(2100, 4000) for _ in range(3000)]
    else:
        lengths = [rng.randint(50, 900) for _ in range(3300)]
    budget = 2048
    sampler = PackingSampler(lengths, budget, seed=rank)
    log.info("rank %d: %d docs, token budget %d", rank, len(lengths), budget)
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 32)))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(1, 201):
        idx = sampler.next_batch()
        if rank == 2 and step >= 15:
            sampler.lengths = lengths[300:]  # short docs of this split are exhausted
        x = torch.randn(len(idx), 32)
        loss = (model(x) - x).pow(2).mean()
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log.info("rank %d step %d docs_in_batch %d loss %.4f", rank, step, len(idx), loss.item())
        time.sleep(0.05)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
