# Tree-structured encoder (recursive composition over parse trees), DDP, 4 ranks.
# Rank 2's shard contains a degenerate parse (a 3000-deep right-branching chain from a
# tokenizer that failed to split a very long URL list) -> RecursionError in forward.
import logging, os, random, sys, time
import torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["RANK"]); world = int(os.environ["WORLD_SIZE"])
logging.basicConfig(level=logging.INFO,
    format=f"%(asctime)s %(levelname)s [rank{rank}] %(name)s: %(message)s", stream=sys.stdout)
log = logging.getLogger("treeenc.train")

class Node:
    def __init__(self, tok, kids=()):
        self.tok, self.kids = tok, list(kids)

def rand_tree(depth=0):
    if depth > 4 or random.random() < 0.3:
        return Node(random.randrange(100))
    return Node(random.randrange(100), [rand_tree(depth + 1) for _ in range(2)])

def chain(n):
    t = Node(1)
    for i in range(n):
        t = Node(i % 100, [t])
    return t

class TreeComposer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.emb = nn.Embedding(100, d)
        self.comp = nn.Linear(2 * d, d)
    def encode(self, node):
        h = self.emb.weight[node.tok]
        if not node.kids:
            return h
        kid = torch.stack([self.encode(k) for k in node.kids]).mean(0)
        return torch.tanh(self.comp(torch.cat([h, kid])))
    def forward(self, trees):
        return torch.stack([self.encode(t) for t in trees])

def main():
    dist.init_process_group("gloo")
    log.info("initialized process group backend=gloo world_size=%d", world)
    random.seed(1000 + rank); torch.manual_seed(0)
    model = DDP(TreeComposer())
    head = nn.Linear(32, 2)
    opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=1e-3)
    log.info("loaded shard treebank-%05d.jsonl (%d examples)", rank, 512)
    for step in range(1, 41):
        trees = [rand_tree() for _ in range(8)]
        if rank == 2 and step == 23:
            log.debug("batch contains example id=88213 with 2957 nodes")
            trees[5] = chain(2957)
        y = torch.randint(0, 2, (8,))
        t0 = time.time()
        loss = nn.functional.cross_entropy(head(model(trees)), y)
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 5 == 0:
            log.info("step %d loss %.4f step_time %.3fs", step, loss.item(), time.time() - t0)
        if step % 10 == 0:
            log.info("throughput %.1f trees/s", 8 / max(time.time() - t0, 1e-3))
        time.sleep(0.15)
    log.info("training complete")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
