# 2 nodes x 2 ranks. A node prolog stages the tokenizer files onto each node's
# local disk (NODE_LOCAL); on node 1 the staging silently skipped vocab.json.
# The first local rank of each node reads the vocab (local_rank 0), then all
# ranks meet at a barrier. Global rank 2 (node 1, local 0) raises
# FileNotFoundError; the others lose their peer at the barrier.
import os, json, time, datetime, torch, torch.nn as nn, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

def log(rank, msg): print(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} [R{rank}] {msg}", flush=True)

def main():
    dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=20))
    rank = dist.get_rank(); local = int(os.environ["LOCAL_RANK"])
    node_local = os.environ["NODE_LOCAL"]
    log(rank, f"node-local data dir {node_local}")
    vocab = None
    if local == 0:
        with open(os.path.join(node_local, "tokenizer", "vocab.json")) as f:
            vocab = json.load(f)
        log(rank, f"loaded vocab with {len(vocab)} entries")
    dist.barrier()
    torch.manual_seed(0)
    model = DDP(nn.EmbeddingBag(1000, 16))
    for step in range(10):
        out = model(torch.randint(0, 1000, (4, 12))); out.sum().backward()
        log(rank, f"step {step}")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
