import logging, os, time, urllib.request
from datetime import timedelta
import torch, torch.distributed as dist, torch.nn as nn
logging.basicConfig(level=logging.INFO, format="%(asctime)s [%(levelname)s] %(name)s (rank %(rank)s): %(message)s")
rank = int(os.environ["RANK"])
log = logging.LoggerAdapter(logging.getLogger("sweep"), {"rank": rank})

def push_metrics(step, loss):
    # best effort: tracking server may be down; never fail training for it
    try:
        urllib.request.urlopen(f"http://127.0.0.1:9/api/metrics?step={step}&loss={loss}", timeout=2)
    except Exception:
        log.exception("could not push metrics for step %d, continuing", step)

def main():
    dist.init_process_group("gloo", timeout=timedelta(seconds=15))
    m = nn.parallel.DistributedDataParallel(nn.Sequential(nn.Linear(10, 10), nn.ReLU(), nn.Linear(10, 1)))
    o = torch.optim.Adam(m.parameters(), lr=1e-2)
    for s in range(1, 41):
        x = torch.randn(16, 10); l = nn.functional.mse_loss(m(x), x[:, :1])
        o.zero_grad(); l.backward(); o.step()
        if s % 10 == 0:
            log.info("step %d loss %.4f", s, l.item())
            if rank == 0 and s == 20: push_metrics(s, l.item())
        time.sleep(0.05)
    log.info("sweep trial finished, final loss %.4f", l.item())
    dist.destroy_process_group()

if __name__ == "__main__":
    main()
