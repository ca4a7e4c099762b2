# Dual-encoder contrastive training, launched with srun (one task per rank).
# Rank 0 runs retrieval eval (recall@k over the full corpus) every eval_every steps.
import os, sys, time
from datetime import timedelta
import torch, torch.nn as nn, torch.nn.functional as F, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
os.environ.setdefault("RANK", str(rank)); os.environ.setdefault("WORLD_SIZE", str(world))
os.environ.setdefault("LOCAL_RANK", os.environ.get("SLURM_LOCALID", "0"))

class Enc(nn.Module):
    def __init__(self, din=48, d=32):
        super().__init__(); self.net = nn.Sequential(nn.Linear(din, 64), nn.ReLU(), nn.Linear(64, d))
    def forward(self, x): return F.normalize(self.net(x), dim=-1)

@torch.no_grad()
def retrieval_eval(enc, n_queries, n_corpus):
    g = torch.Generator().manual_seed(123)
    q = enc(torch.randn(n_queries, 48, generator=g))
    c = enc(torch.randn(n_corpus, 48, generator=g))
    scores = q @ c.T                      # full score matrix, topk over the corpus
    top = scores.topk(10, dim=1).indices
    return (top == torch.arange(n_queries).unsqueeze(1) % n_corpus).any(1).float().mean().item()

def main():
    dist.init_process_group("gloo", init_method=f"tcp://{os.environ['MASTER_ADDR']}:{os.environ['MASTER_PORT']}",
                            rank=rank, world_size=world, timeout=timedelta(seconds=25))
    torch.manual_seed(rank)
    model = DDP(Enc())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    if rank == 0:
        print(f"world={world} params={sum(p.numel() for p in model.parameters())}", flush=True)
    eval_every, eval_size = 20, [(2000, 20000), (40000, 40000)]
    for step in range(1, 61):
        a = torch.randn(64, 48); b = a + 0.1 * torch.randn_like(a)
        za, zb = model(a), model(b)
        logits = za @ zb.T / 0.05
        loss = F.cross_entropy(logits, torch.arange(64))
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 5 == 0:
            print(f"step {step:4d} | loss {loss.item():.4f}", flush=True)
        if step % eval_every == 0:
            if rank == 0:
                nq, nc = eval_size[min(step // eval_every - 1, 1)]
                t = time.time()
                r10 = retrieval_eval(model.module, nq, nc)
                print(f"eval step {step}: recall@10={r10:.4f} (queries={nq} corpus={nc}, {time.time()-t:.1f}s)", flush=True)
            dist.barrier()
        time.sleep(0.15)
    if rank == 0: print("done", flush=True)
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
