# 2-node contrastive pretraining; metrics are pushed to a gateway when reachable (best effort)
import os, time, json, logging, urllib.request, torch, torch.nn as nn, torch.distributed as dist
from datetime import timedelta

GATEWAY = os.environ.get("METRICS_GATEWAY", "http://127.0.0.1:30922/metrics/job/simclr")

def push_metrics(payload, log, attempts=3):
    for a in range(1, attempts + 1):
        try:
            req = urllib.request.Request(GATEWAY, data=json.dumps(payload).encode(), method="POST")
            urllib.request.urlopen(req, timeout=2)
            return True
        except OSError as e:
            log.warning("metrics push failed (attempt %d/%d): %s", a, attempts, e, exc_info=(a == attempts))
            time.sleep(0.5 * a)
    log.warning("metrics gateway unreachable, continuing without metrics (training is unaffected)")
    return False

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=30))
    rank, world = dist.get_rank(), dist.get_world_size()
    logging.basicConfig(level=logging.INFO, format=f"%(asctime)s %(levelname)s [rank{rank}] %(message)s")
    log = logging.getLogger("simclr")
    log.info("joined group: world_size=%d local_rank=%s", world, os.environ["LOCAL_RANK"])
    metrics_on = push_metrics({"event": "start"}, log) if rank == 0 else False
    torch.manual_seed(0)
    model = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16)))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(rank)
    for step in range(1, 151):
        x = torch.randn(32, 32, generator=g)
        a, b = model(x + 0.1 * torch.randn_like(x)), model(x + 0.1 * torch.randn_like(x))
        a, b = nn.functional.normalize(a, dim=1), nn.functional.normalize(b, dim=1)
        loss = nn.functional.cross_entropy(a @ b.T / 0.1, torch.arange(32))
        opt.zero_grad(); loss.backward(); opt.step()
        if rank == 0 and step % 25 == 0:
            log.info("step %d contrastive_loss %.4f", step, loss.item())
            if metrics_on:
                push_metrics({"step": step, "loss": loss.item()}, log)
    dist.barrier()
    if rank == 0:
        log.info("done: 150 steps")
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
