# ranking model; rank 0 auto-tunes the eval batch size by halving on allocation failure
import os, logging, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

rank, world = int(os.environ["SLURM_PROCID"]), int(os.environ["SLURM_NTASKS"])
logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("rank%d" % rank)

def score_all(net, n_items=2_000_000, bs=1 << 22):
    with torch.no_grad():
        while True:
            try:
                out = []
                for i in range(0, n_items, bs):
                    feats = torch.randn(min(bs, n_items - i), 256)        # item features for this chunk
                    out.append(net(feats).squeeze(-1))
                return torch.cat(out), bs
            except RuntimeError as e:
                if "can't allocate memory" not in str(e) or bs <= 1024:
                    raise
                log.exception("eval batch %d does not fit in host memory; retrying with %d", bs, bs // 2)
                bs //= 2

def main():
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:30123", rank=rank, world_size=world,
                            timeout=timedelta(seconds=60))
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(256, 64), nn.ReLU(), nn.Linear(64, 1))
    model = nn.parallel.DistributedDataParallel(net)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 81):
        x = torch.randn(128, 256, generator=g)
        loss = nn.functional.mse_loss(model(x).squeeze(-1), x[:, :4].sum(1))
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 20 == 0:
            log.info("step %d loss %.4f", step, loss.item())
    if rank == 0:
        scores, bs = score_all(net)
        log.info("scored %d items with eval batch %d; top score %.3f", scores.numel(), bs, scores.max().item())
    dist.barrier()
    log.info("finished")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
