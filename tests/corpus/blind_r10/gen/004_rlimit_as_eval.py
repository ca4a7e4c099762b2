# dual-encoder retrieval training with in-loop recall@10 eval on rank 0
import os, logging, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

rank = int(os.environ["SLURM_PROCID"]); world = int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format=f"%(asctime)s [%(levelname)s] [rank {rank}] %(message)s")
log = logging.getLogger(__name__)

def recall_at_10(enc, n_query=20000, n_corpus=50000):
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        q = enc(torch.randn(n_query, 64, generator=g))
        c = enc(torch.randn(n_corpus, 64, generator=g))
        sim = q @ c.T                      # full similarity matrix
        top = sim.topk(10, dim=1).indices
    return (top == torch.arange(n_query).unsqueeze(1)).any(1).float().mean().item()

def main():
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:30104", rank=rank, world_size=world,
                            timeout=timedelta(seconds=25))
    log.info("init done, world_size=%d", world)
    enc = nn.Sequential(nn.Linear(64, 128), nn.Tanh(), nn.Linear(128, 128))
    model = nn.parallel.DistributedDataParallel(enc)
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    for step in range(1, 61):
        a = torch.randn(64, 64); b = a + 0.1 * torch.randn(64, 64)
        za, zb = model(a), model(b)
        loss = nn.functional.cross_entropy(za @ zb.T / 0.05, torch.arange(64))
        opt.zero_grad(); loss.backward(); opt.step()
        if step % 10 == 0:
            log.info("step %d loss %.4f", step, loss.item())
        if step % 25 == 0:
            if rank == 0:
                log.info("running recall@10 eval (20000 queries x 50000 docs)")
                r = recall_at_10(enc)
                log.info("recall@10 %.4f", r)
            dist.barrier()
    log.info("training finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
